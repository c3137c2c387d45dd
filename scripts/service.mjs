// `npm run service [-- …]`: runs service/main.ts from an esbuild bundle instead of through tsx,
// whose per-module loader hooks cost about a second of every start. Plain JS, so nothing compiles it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'marquee');
const SOURCES = ['service', 'shared'];
/**
 * Packages loaded from node_modules as they are; every other one is bundled (kysely is 279 ES
 * module files, fastify and its dependencies ~200 CommonJS ones: loading them one by one was
 * ~150 ms and ~130 ms of CPU in a start, bundled a fraction). better-sqlite3 is a native addon; pg
 * is imported only with a PostgreSQL URL (and requires the optional pg-native, which a bundle
 * would need to resolve); esbuild builds.
 */
const EXTERNAL = ['better-sqlite3', 'pg', 'esbuild'];
const DAY_MS = 86_400_000;

/** Hash of what the bundle is made of: the sources' contents (~3 ms), tsconfig.json, this file (the build options), the installed packages' versions (the lockfile). */
function fingerprint() {
  const hash = createHash('sha256');
  const files = SOURCES.flatMap((dir) => readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && /\.([mc]?[jt]s|json)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .concat(join(ROOT, 'tsconfig.json'), fileURLToPath(import.meta.url), join(ROOT, 'package-lock.json'))
    .sort();
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** Builds into a private folder, then renames it into place: concurrent starts never see half a build. */
async function build(dir) {
  const { build } = await import('esbuild'); // loaded only when (re)building
  const tmp = `${dir}.tmp-${process.pid}`;
  await build({
    entryPoints: [join(ROOT, 'service', 'main.ts')],
    outdir: tmp,
    outExtension: { '.js': '.mjs' }, // node_modules/.cache has no package.json saying "module"
    bundle: true,
    splitting: true, // main.ts's dynamic imports stay separate chunks: a CLI command skips the HTTP app
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked', // logged stack traces name the .ts files (see setSourceMapsEnabled below)
    sourcesContent: false, // the sources are on disk
    minify: true, // ≈ 50 ms less of every start: a third of the text to decode and parse; stacks map back when a log level is set
    plugins: [externalPackages, sourceImportMeta],
    logLevel: 'warning',
    // Bundled CommonJS packages call require() for Node's built-ins: give the ES module bundle one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  }).catch((error) => {
    rmSync(tmp, { recursive: true, force: true });
    if (!error.errors?.length) throw error;
    process.exit(1); // a compile error: esbuild has printed it
  });
  try {
    renameSync(tmp, dir);
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(join(dir, 'main.mjs'))) throw error; // else a concurrent start built it first
  }
  prune(dir);
}

/** EXTERNAL packages and Node's built-ins stay imports; everything else is bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, ({ path, kind }) =>
      kind !== 'entry-point' &&
      (path.startsWith('node:') || EXTERNAL.some((p) => path === p || path.startsWith(`${p}/`)))
        ? { external: true }
        : undefined,
    );
  },
};

/**
 * Each module's `import.meta.url` (and dirname/filename) stays its source file's, so files found
 * beside a module (service/data/demo-catalog.json.gz) are found in the source tree as under tsx.
 */
const sourceImportMeta = {
  name: 'source-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.[mc]?ts$/ }, (args) => {
      const url = pathToFileURL(args.path).href;
      const values = { url, filename: args.path, dirname: dirname(args.path) };
      const source = readFileSync(args.path, 'utf8');
      const contents = source.replace(/\bimport\.meta\.(url|filename|dirname)\b/g, (_, key) =>
        JSON.stringify(values[key]),
      );
      return { contents, loader: 'ts' };
    });
  },
};

/** Drops builds unused for a day (a start reusing a build touches it), never the current one. */
function prune(current) {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    const used = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now(); // a concurrent start may have pruned it
    if (path !== current && Date.now() - used > DAY_MS) rmSync(path, { recursive: true, force: true });
  }
}

const dir = join(CACHE, fingerprint());
if (existsSync(join(dir, 'main.mjs'))) {
  const now = new Date();
  try {
    utimesSync(dir, now, now);
  } catch {} // a read-only cache only means no pruning
} else {
  await build(dir);
}
// .ts stack traces as under tsx, but only where a stack is written: the log (--log-level or
// MARQUEE_LOG_LEVEL other than silent) writes a 500's error with its stack; otherwise the service
// prints errors' messages alone. Mapping costs ≈65 ms of CPU of every start (the maps are read and
// parsed as each chunk loads).
if (!/^(|silent)$/.test(logLevelAsked() ?? '')) process.setSourceMapsEnabled(true);

/** The log level the service will be started with (its config.ts reads it the same way: the flag, else the variable). */
function logLevelAsked() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--log-level');
  if (at >= 0) return args[at + 1];
  const inline = args.find((a) => a.startsWith('--log-level='));
  return inline ? inline.slice('--log-level='.length) : process.env.MARQUEE_LOG_LEVEL;
}
// main.mjs reads process.argv.slice(2), which is this script's arguments, as when main.ts ran directly.
await import(pathToFileURL(join(dir, 'main.mjs')).href);
