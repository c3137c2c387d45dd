// `npm start`: the desktop app in Electron; when no Electron binary is installed or it cannot
// start, says so in one line and starts the web host instead. `npm run start:web` (`--web`): the
// web host only. Either way the embedded service starts with it, and SIGINT/SIGTERM stop everything.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ROOT,
  buildMain,
  buildPreload,
  buildRenderer,
  ensureWebHost,
  rendererIsStale,
  webHostIsStale,
} from './build.mjs';

/** The Electron executable, found the way node_modules/electron finds it, without requiring it (that would download it). */
function electronBinary() {
  const pkg = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  const relative = existsSync(pathFile)
    ? readFileSync(pathFile, 'utf8').trim()
    : process.platform === 'darwin'
      ? 'Electron.app/Contents/MacOS/Electron'
      : process.platform === 'win32'
        ? 'electron.exe'
        : 'electron';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? join(override, relative) : join(pkg, 'dist', relative);
  if (!existsSync(binary)) return { binary: null, why: `no Electron binary at ${binary}` };
  return { binary, why: '' };
}

let child = null;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true;
    if (child && child.exitCode === null) child.kill(signal);
    else process.exit(0);
  });
}

async function ensureRenderer() {
  if (!rendererIsStale()) return;
  console.log('Building the renderer…');
  await buildRenderer();
}

/** Runs Electron; resolves true when it stopped after its window opened, false when it never started. */
async function runElectron(binary) {
  await Promise.all([ensureRenderer(), buildPreload(), buildMain()]);
  return new Promise((resolve) => {
    let ready = false;
    child = spawn(binary, [join(ROOT, 'dist', 'main.mjs')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, MARQUEE_NODE: process.execPath },
    });
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      if (/^Marquee window ready$/m.test(chunk.toString())) ready = true;
    });
    child.once('error', (error) => {
      console.log(`Electron cannot start (${error.message}); starting the web host instead.`);
      resolve(false);
    });
    child.once('exit', (code, signal) => {
      if (ready || stopping || code === 0) process.exit(code ?? (signal ? 0 : 1));
      console.log(`Electron cannot start (exit ${code ?? signal}); starting the web host instead.`);
      resolve(false);
    });
  });
}

async function ensureWebHostBundle() {
  if (!webHostIsStale()) return;
  console.log('Building the web host…');
  await ensureWebHost();
}

/**
 * The web host from its bundle, dist/web-host.mjs (tsx's loader would cost seconds of every start);
 * the bundle and the renderer are rebuilt only when a file they are made of changed.
 */
async function runWebHost() {
  await Promise.all([ensureRenderer(), ensureWebHostBundle()]);
  if (stopping) process.exit(0);
  child = spawn(process.execPath, [join(ROOT, 'dist', 'web-host.mjs')], { cwd: ROOT, stdio: 'inherit' });
  child.once('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1)));
}

/** `npm start`: Electron, or the web host where Electron cannot run. */
async function runDesktopOrWeb() {
  const { binary, why } = process.env.MARQUEE_WEB === '1' ? { binary: null, why: 'MARQUEE_WEB=1' } : electronBinary();
  if (!binary) {
    console.log(`Electron is not available (${why}); starting the web host instead.`);
    await runWebHost();
  } else if (!(await runElectron(binary))) {
    await runWebHost();
  }
}

if (process.argv.includes('--web')) await runWebHost();
else await runDesktopOrWeb();
