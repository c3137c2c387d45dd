import { execFile } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, childEnv } from './service-process.ts';

/** The part of scripts/build.mjs used here. */
interface BuildScript {
  DIST: string;
  rendererIsStale(): boolean;
  webHostIsStale(): boolean;
  ensureWebHost(): Promise<void>;
}

const LOCK_POLL_MS = 200;

/**
 * dist/renderer and dist/web-host.mjs as `npm start` would build them, built once per run: the
 * first test file that needs them builds, under a lock file, while the others wait. Without it
 * each file's `npm start` found the renderer stale on a clean clone and built its own, at once.
 * Resolves to the built renderer's folder.
 */
export async function ensureAppBundles(): Promise<string> {
  const build = (await import(join(ROOT, 'scripts', 'build.mjs'))) as BuildScript;
  const lock = join(build.DIST, '.test-build.lock');
  while (build.rendererIsStale() || build.webHostIsStale()) {
    if (!takeLock(lock)) {
      await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
      continue;
    }
    try {
      if (build.rendererIsStale()) await buildRenderer();
      await build.ensureWebHost();
    } finally {
      rmSync(lock, { force: true });
    }
  }
  return join(build.DIST, 'renderer');
}

/** `npm run build:renderer` in a child process: Vite's memory and its size warnings stay out of the test worker. */
async function buildRenderer(): Promise<void> {
  await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), 'renderer'], {
    cwd: ROOT,
    env: childEnv({}),
  });
}

/** Creates the lock file holding our pid; false while another live process holds it (a dead holder's lock is removed). */
function takeLock(lock: string): boolean {
  mkdirSync(join(lock, '..'), { recursive: true });
  try {
    const fd = openSync(lock, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let holder = NaN;
  try {
    holder = Number(readFileSync(lock, 'utf8') || NaN);
  } catch {
    return false; // released meanwhile: the next try takes it
  }
  if (Number.isInteger(holder) && !alive(holder)) rmSync(lock, { force: true });
  return false;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
