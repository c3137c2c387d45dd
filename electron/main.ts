import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  Notification,
  protocol,
  safeStorage,
  session,
  shell,
  utilityProcess,
  type IpcMainInvokeEvent,
  type MenuItemConstructorOptions,
} from 'electron';
import Store from 'electron-store';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_NAMES, IPC_CHANNEL, IPC_EVENT_CHANNEL, type Events } from '../shared/ipc.ts';
import { showAlertNotification } from './notifications.ts';
import type { ExportFile } from '../shared/import-export.ts';
import { createIpcServer } from './bridge.ts';
import type { AppCore } from './core/app-core.ts';
import { activeBaseUrl, knownServiceOrigins, loadCore } from './core-loader.ts';
import {
  attachService,
  serviceArgs,
  serviceEntry,
  serviceEnv,
  startEmbeddedService,
  ROOT,
  type EmbeddedService,
  type ServiceProcess,
} from './embedded-service.ts';
import { contentType, pinnedTheme, resolveRendererFile, withPinnedTheme } from './renderer-files.ts';
import { superviseEmbeddedService } from './service-address.ts';
import { withServiceEvents, type ServiceSupervisor } from './service-supervisor.ts';
import {
  APP_ENTRY_URL,
  APP_HOST,
  APP_SCHEME,
  guardedOpenExternal,
  isAppUrl,
  mainWindowOptions,
  originsOf,
  rendererHeaders,
  secureContents,
  securePermissions,
  type ImageOrigins,
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
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
]);

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
    // Supervised, on the port kept by earlier launches: a process that exits is started again on it.
    service = await superviseEmbeddedService({
      userDataDir,
      start: (port) => startServiceProcess(userDataDir, port),
      log,
    });
    if (service.demoSignIn)
      console.log(`Demo sign-in: login ${service.demoSignIn.login}, password ${service.demoSignIn.password}`);
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
      saveFile: saveExport,
    });
    secureSession(() => (core ? knownServiceOrigins(core, embedded.url) : embedded.url));
    wireIpc(withServiceEvents(core, embedded));
    Menu.setApplicationMenu(appMenu());
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
  if (!app.isPackaged && process.env.MARQUEE_NODE)
    return startEmbeddedService({ userDataDir, port, node: process.env.MARQUEE_NODE, log });
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
    if (found.kind === 'not_built')
      return new Response('The renderer is not built: run npm run build:renderer', { status: 503 });
    if (found.kind === 'not_found') return new Response('Not found', { status: 404 });
    const headers = { ...rendererHeaders(originsOf(await serviceOrigins())), 'content-type': contentType(found.path) };
    const body = await readFile(found.path);
    const page = found.isIndex ? withPinnedTheme(body.toString('utf8'), await pinnedTheme(core)) : body;
    return new Response(page, { status: 200, headers });
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
  appCore.on('alerts.new', (news) => showAlertNotification(Notification, news, showAlerts));
}

/** A notification clicked: the window forward, on the Alerts screen. */
function showAlerts(): void {
  if (!mainWindow || mainWindow.isDestroyed()) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
  sendCommand({ command: 'alerts' });
}

/** The menu bar: the platform's usual menus, with File › Import… and Export… (Marquee's lists in and out). */
function appMenu(): Menu {
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Import…', accelerator: 'CmdOrCtrl+O', click: () => void openImportFile() },
      { label: 'Export…', accelerator: 'CmdOrCtrl+E', click: () => sendCommand({ command: 'export' }) },
      { type: 'separator' },
      process.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    file,
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
  return Menu.buildFromTemplate(template);
}

function sendCommand(payload: Events['app.command']): void {
  if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(IPC_EVENT_CHANNEL, 'app.command', payload);
}

/** The largest list the app imports (the same limit as a file chosen in the window). */
const MAX_IMPORT_BYTES = 800_000;

/** File › Import…: the system's open dialog; the file's text goes to the Import screen (its kind is read from the content). */
async function openImportFile(): Promise<void> {
  if (!mainWindow) return;
  const chosen = await dialog.showOpenDialog(mainWindow, {
    title: 'Import a list',
    properties: ['openFile'],
    filters: [
      { name: 'Lists', extensions: ['csv', 'txt', 'xml', 'atom', 'json'] },
      { name: 'All files', extensions: ['*'] },
    ],
  });
  const path = chosen.filePaths[0];
  if (chosen.canceled || !path) return;
  const name = basename(path);
  try {
    if ((await stat(path)).size > MAX_IMPORT_BYTES)
      return sendCommand({
        command: 'import',
        file: {
          name,
          text: '',
          problem: `“${name}” is too large to import (over 800 KB). Export a shorter list, or split it.`,
        },
      });
    sendCommand({ command: 'import', file: { name, text: await readFile(path, 'utf8') } });
  } catch {
    sendCommand({
      command: 'import',
      file: {
        name,
        text: '',
        problem: `“${name}” could not be read. Check that the file is still there and try again.`,
      },
    });
  }
}

/** The core's saveFile: the system's save dialog, in the documents folder by default. */
async function saveExport(file: ExportFile): Promise<{ saved: boolean }> {
  const options = {
    title: 'Export',
    defaultPath: join(app.getPath('documents'), file.fileName),
    filters: [{ name: file.mediaType, extensions: [file.fileName.split('.').pop() ?? 'txt'] }],
  };
  const chosen = mainWindow ? await dialog.showSaveDialog(mainWindow, options) : await dialog.showSaveDialog(options);
  if (chosen.canceled || !chosen.filePath) return { saved: false };
  await writeFile(chosen.filePath, file.content, 'utf8');
  return { saved: true };
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
