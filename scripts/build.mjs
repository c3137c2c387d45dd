// Builds the desktop app's pieces into dist/: `node scripts/build.mjs [renderer] [preload] [main] [service]`
// (no argument: all). Used by the npm build scripts and by scripts/start.mjs.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');

/** The renderer with Vite, into dist/renderer (or `outDir`). */
export async function buildRenderer(outDir = join(DIST, 'renderer')) {
  const { build } = await import('vite');
  await build({ configFile: join(ROOT, 'renderer', 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
}

/** The preload as one CommonJS file: a sandboxed preload may require only 'electron'. */
export async function buildPreload(outfile = join(DIST, 'preload.cjs')) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(ROOT, 'electron', 'preload.ts')],
    outfile,
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: 'chrome130',
    external: ['electron'],
    minify: true,
    logLevel: 'warning',
  });
}

/** Electron's main process as one ES module; packages stay in node_modules. */
export async function buildMain() {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(ROOT, 'electron', 'main.ts')],
    outfile: join(DIST, 'main.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    logLevel: 'warning',
  });
}

/** The service as one ES module for the packaged app, its demo catalog seed beside it. */
export async function buildService() {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(ROOT, 'service', 'main.ts')],
    outfile: join(DIST, 'service.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    logLevel: 'warning',
  });
  for (const file of ['demo-catalog.json.gz', 'NOTICE']) copyFileSync(join(ROOT, 'service', 'data', file), join(DIST, file));
}

/** True when dist/renderer is missing or older than a renderer or shared source file. */
export function rendererIsStale(outDir = join(DIST, 'renderer')) {
  const index = join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return [join(ROOT, 'renderer'), join(ROOT, 'shared')].some((dir) => newerThan(dir, built));
}

function newerThan(dir, time) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() ? newerThan(path, time) : statSync(path).mtimeMs > time) return true;
  }
  return false;
}

const STEPS = { renderer: () => buildRenderer(), preload: buildPreload, main: buildMain, service: buildService };

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const names = process.argv.slice(2);
  const unknown = names.filter((n) => !(n in STEPS));
  if (unknown.length > 0) {
    console.error(`unknown build step: ${unknown.join(', ')} (known: ${Object.keys(STEPS).join(', ')})`);
    process.exit(2);
  }
  mkdirSync(DIST, { recursive: true });
  for (const name of names.length > 0 ? names : Object.keys(STEPS)) {
    await STEPS[name]();
    console.log(`built ${name}`);
  }
}
