// Builds the desktop app's pieces into dist/: `node scripts/build.mjs [renderer] [preload] [main] [service] [web-host]`
// (no argument: all). Used by the npm build scripts, by scripts/start.mjs and by test/build/.
// What the bundles may import is one rule, in scripts/bundle-rule.mjs.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NODE_ESM_BANNER, productionOnly } from './bundle-rule.mjs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');

/** The renderer with Vite, into dist/renderer (or `outDir`). */
export async function buildRenderer(outDir = join(DIST, 'renderer')) {
  const { build } = await import('vite');
  // What ships is React's production build, whatever NODE_ENV this runs under: Vite keeps a
  // NODE_ENV it finds (vitest's "test" made the tests' renderer a development build, StrictMode's
  // double effects and all).
  const callerNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(ROOT, 'renderer', 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (callerNodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = callerNodeEnv;
  }
}

/** One build under the import rule; resolves to esbuild's metafile (what it holds and imports). */
async function bundle(options) {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    bundle: true,
    metafile: true,
    plugins: [productionOnly(ROOT)],
    logLevel: 'warning',
    ...options,
  });
  return result.metafile;
}

/**
 * A Node (or Electron main) process's ES module `<outDir>/<name>.mjs`, its JS libraries inside (see
 * NODE_ESM_BANNER). A dynamic import stays one: its code goes to a chunk `<name>.<chunk>-<hash>.mjs`,
 * loaded only when called.
 * Chunks sit beside the entry, so `import.meta.url` names dist/ in every one (the service's seed).
 */
function nodeBundle(name, entry, outDir) {
  removeChunks(name, outDir);
  return bundle({
    entryPoints: { [name]: join(ROOT, entry) },
    outdir: outDir,
    entryNames: '[name]',
    chunkNames: `${name}.[name]-[hash]`,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: NODE_ESM_BANNER },
  });
}

/** A previous build's chunks of bundle `name` (`<name>.<chunk>-<hash>.mjs`), so no stale one ships. */
function removeChunks(name, outDir) {
  if (!existsSync(outDir)) return;
  for (const file of readdirSync(outDir))
    if (file.startsWith(`${name}.`) && file !== `${name}.mjs` && file.endsWith('.mjs'))
      rmSync(join(outDir, file), { force: true });
}

/** The preload as one CommonJS file: a sandboxed preload may require only 'electron'. */
export function buildPreload(outfile = join(DIST, 'preload.cjs')) {
  return bundle({
    entryPoints: [join(ROOT, 'electron', 'preload.ts')],
    outfile,
    platform: 'browser',
    format: 'cjs',
    target: 'chrome130',
    minify: true,
  });
}

/** Electron's main process: dist/main.mjs. */
export function buildMain(outDir = DIST) {
  return nodeBundle('main', join('electron', 'main.ts'), outDir);
}

/** The service for the packaged app (dist/service.mjs), its demo catalog seed beside it. */
export async function buildService(outDir = DIST) {
  const metafile = await nodeBundle('service', join('service', 'main.ts'), outDir);
  for (const file of ['demo-catalog.json.gz', 'NOTICE'])
    copyFileSync(join(ROOT, 'service', 'data', file), join(outDir, file));
  return metafile;
}

/** The web host (the same core as main, served to a browser): dist/web-host.mjs, runs without tsx. */
export async function buildWebHost(outDir = DIST) {
  const started = Date.now();
  const metafile = await nodeBundle('web-host', join('electron', 'web-host.ts'), outDir);
  const inputs = [...Object.keys(metafile.inputs).map((path) => resolve(path)), ...BUILD_FILES];
  writeFileSync(webHostInputs(outDir), JSON.stringify({ started, inputs }));
  return metafile;
}

/** What shapes every bundle besides its inputs: the build options. */
const BUILD_FILES = [fileURLToPath(import.meta.url), join(ROOT, 'scripts', 'bundle-rule.mjs')];

/** The files the last web-host build read (esbuild's metafile) and when it started, beside the bundle. */
const webHostInputs = (outDir) => join(outDir, 'web-host.inputs.json');

/** True when dist/web-host.mjs is missing, or a file it was built from changed (or went) since its build started. */
export function webHostIsStale(outDir = DIST) {
  if (!existsSync(join(outDir, 'web-host.mjs')) || !existsSync(webHostInputs(outDir))) return true;
  const { started, inputs } = JSON.parse(readFileSync(webHostInputs(outDir), 'utf8'));
  return inputs.some((path) => (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) >= started);
}

/**
 * `npm run start:web`'s web host, rebuilt only when stale. Built in a private folder, then renamed
 * into `outDir` (chunks first, the entry, then its inputs list), so a concurrent start never runs half a build.
 */
export async function ensureWebHost(outDir = DIST) {
  if (!webHostIsStale(outDir)) return;
  const tmp = join(outDir, `.web-host-${process.pid}`);
  try {
    await buildWebHost(tmp);
    const files = readdirSync(tmp).sort((a, b) => rank(a) - rank(b));
    for (const file of files) renameSync(join(tmp, file), join(outDir, file));
    pruneOldChunks(outDir, files);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Chunks of earlier web-host builds, once a day old (a web host started before may still load its own). */
function pruneOldChunks(outDir, current) {
  for (const file of readdirSync(outDir)) {
    if (!file.startsWith('web-host.') || !file.endsWith('.mjs') || current.includes(file)) continue;
    const path = join(outDir, file);
    if (Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 86_400_000)
      rmSync(path, { force: true });
  }
}

const rank = (file) => (file === 'web-host.inputs.json' ? 2 : file === 'web-host.mjs' ? 1 : 0);

/** True when dist/renderer is missing or older than a renderer or shared source file. */
export function rendererIsStale(outDir = join(DIST, 'renderer')) {
  const index = join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return (
    [join(ROOT, 'renderer'), join(ROOT, 'shared')].some((dir) => newerThan(dir, built)) ||
    BUILD_FILES.some((file) => statSync(file).mtimeMs > built)
  );
}

function newerThan(dir, time) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() ? newerThan(path, time) : statSync(path).mtimeMs > time) return true;
  }
  return false;
}

const STEPS = {
  renderer: () => buildRenderer(),
  preload: () => buildPreload(),
  main: () => buildMain(),
  service: () => buildService(),
  'web-host': () => buildWebHost(),
};

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
