import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, shell, utilityProcess, type IpcMainInvokeEvent } from 'electron';
import Store from 'electron-store';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_NAMES, IPC_CHANNEL, IPC_EVENT_CHANNEL } from '../shared/ipc.ts';
import { createIpcServer } from './bridge.ts';
import type { AppCore } from './core/app-core.ts';
import { activeBaseUrl, knownServiceOrigins, loadCore } from './core-loader.ts';
import { attachService, serviceArgs, serviceEntry, serviceEnv, startEmbeddedService, ROOT, type EmbeddedService, type ServiceProcess } from './embedded-service.ts';
import { contentType, resolveRendererFile } from './renderer-files.ts';
import { superviseService, withServiceEvents, type ServiceSupervisor } from './service-supervisor.ts';
import {
  APP_ENTRY_URL, APP_HOST, APP_SCHEME, guardedOpenExternal, isAppUrl, mainWindowOptions, originsOf, rendererHeaders, secureContents, securePermissions, type ImageOrigins,
} from './window-options.ts';

/**
 * Electron's entry (bundled to dist/main.mjs): one window on the app:// protocol, the embedded
 * service in a utility process, the core in this process behind one validated IPC channel.
 */
const DIST = dirname(fileURLToPath(import.meta.url));
const RENDERER_DIR = join(DIST, 'renderer');

app.setName('Marquee');
if (process.env.MARQUEE_USER_DATA_DIR) app.setPath('userData', resolve(process.env.MARQUEE_USER_DATA_DIR));
app.enableSandbox();
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);

let mainWindow: BrowserWindow | null = null;
let core: AppCore | null = null;
let service: ServiceSupervisor | null = null;

if (!app.requestSingleInstanceLock()) app.quit();
else void start();

async function start(): Promise<void> {
  await app.whenReady();
  try {
    const userDataDir = app.getPath('userData');
    const log = (line: string) => console.error(`[service] ${line}`);
    // Supervised: a service process that exits is started again on the same port and data.
    service = await superviseService({ start: (port) => startServiceProcess(userDataDir, port), log });
    if (service.demoSignIn) console.log(`Demo sign-in: login ${service.demoSignIn.login}, password ${service.demoSignIn.password}`);
    const embedded = service;
    const baseUrl = () => (core ? activeBaseUrl(core, embedded.url) : embedded.url);
    core = await loadCore({
      userDataDir,
      embeddedService: embedded,
      host: 'electron',
      secretCipher: safeStorage,
      settingsStore: Store,
      // The only way anything leaves the app: the active profile's sign-in page, in the system browser.
      openExternal: guardedOpenExternal(baseUrl, (url) => shell.openExternal(url)),
    });
    secureSession(() => (core ? knownServiceOrigins(core, embedded.url) : embedded.url));
    wireIpc(withServiceEvents(core, embedded));
    createWindow();
  } catch (error) {
    dialog.showErrorBox('Marquee could not start', error instanceof Error ? error.message : String(error));
    await shutdown();
    app.exit(1);
  }
}

/**
 * The embedded service in its own process, its data under the app's user-data folder. Packaged,
 * it is a utility process (native modules are rebuilt for Electron by electron-builder). From a
 * checkout, `npm start` passes its own Node in MARQUEE_NODE: node_modules' native modules are
 * built for that Node, not for Electron's.
 */
function startServiceProcess(userDataDir: string, port: number): Promise<EmbeddedService> {
  const log = (line: string) => console.error(`[service] ${line}`);
  if (!app.isPackaged && process.env.MARQUEE_NODE) return startEmbeddedService({ userDataDir, port, node: process.env.MARQUEE_NODE, log });
  const entry = serviceEntry(ROOT, app.isPackaged);
  const child = utilityProcess.fork(entry.modulePath, serviceArgs(userDataDir, process.env, port), {
    cwd: ROOT,
    env: serviceEnv(),
    execArgv: entry.execArgv,
    stdio: 'pipe',
    serviceName: 'Marquee service',
  });
  const proc: ServiceProcess = {
    stdout: child.stdout,
    stderr: child.stderr,
    kill: () => child.kill(),
    once: (event, listener) => child.once(event, (code) => listener(code)),
    get pid() {
      return child.pid;
    },
  };
  return attachService(proc, { log });
}

/** `serviceOrigins`: every known service's URL, for the CSP's img-src (a page keeps it across a switch). */
function secureSession(serviceOrigins: () => Promise<ImageOrigins> | ImageOrigins): void {
  securePermissions(session.defaultSession);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || request.method !== 'GET') return new Response('Not found', { status: 404 });
    const found = await resolveRendererFile(RENDERER_DIR, url.pathname);
    if (found.kind === 'not_built') return new Response('The renderer is not built: run npm run build:renderer', { status: 503 });
    if (found.kind === 'not_found') return new Response('Not found', { status: 404 });
    const headers = { ...rendererHeaders(originsOf(await serviceOrigins())), 'content-type': contentType(found.path) };
    return new Response(await readFile(found.path), { status: 200, headers });
  });
}

app.on('web-contents-created', (_event, contents) => secureContents(contents));

/** Only the app's own window, its top frame on app://marquee/, may call. */
function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const win = mainWindow;
  if (!win || win.isDestroyed() || event.sender !== win.webContents) return false;
  const frame = event.senderFrame;
  return frame !== null && frame.parent === null && isAppUrl(frame.url);
}

function wireIpc(appCore: AppCore): void {
  const server = createIpcServer<IpcMainInvokeEvent>((name, input) => appCore.dispatch(name, input), isTrustedSender);
  ipcMain.handle(IPC_CHANNEL, (event, name: unknown, input: unknown) => server.handle(event, name, input));
  for (const name of EVENT_NAMES) {
    appCore.on(name, (payload) => {
      if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(IPC_EVENT_CHANNEL, name, payload);
    });
  }
}

function createWindow(): void {
  const win = new BrowserWindow(mainWindowOptions(DIST));
  mainWindow = win;
  win.once('ready-to-show', () => {
    win.show();
    console.log('Marquee window ready');
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(APP_ENTRY_URL);
}

app.on('second-instance', () => {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
});

app.on('activate', () => {
  if (app.isReady() && core && !mainWindow) createWindow();
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting) return;
  quitting = true;
  event.preventDefault();
  void shutdown().finally(() => app.quit());
});

async function shutdown(): Promise<void> {
  service?.endRestarts();
  await core?.close().catch(() => {});
  await service?.stop().catch(() => {});
  core = null;
  service = null;
}
