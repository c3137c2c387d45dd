import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { ROOT } from '../helpers/service-process.ts';

/**
 * What the installed app is made of: the bundles scripts/build.mjs writes, the imports they keep,
 * and npm's own record of the production packages, its lockfile (independent of the build's bundle rule).
 */

export type BundleName = 'main' | 'preload' | 'service' | 'web-host';

/** The part of esbuild's metafile read here: every output file and what it imports. */
export interface Metafile {
  outputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
}

interface BuildScript {
  buildMain(outDir: string): Promise<Metafile>;
  buildPreload(outfile: string): Promise<Metafile>;
  buildService(outDir: string): Promise<Metafile>;
  buildWebHost(outDir: string): Promise<Metafile>;
}

const buildScript = async () => (await import(join(ROOT, 'scripts', 'build.mjs'))) as BuildScript;

/** Builds the named bundles into `outDir` (as `npm run build` does into dist/), one after another. */
export async function buildBundles(outDir: string, names: BundleName[]): Promise<Map<BundleName, Metafile>> {
  const build = await buildScript();
  const steps: Record<BundleName, () => Promise<Metafile>> = {
    main: () => build.buildMain(outDir),
    preload: () => build.buildPreload(join(outDir, 'preload.cjs')),
    service: () => build.buildService(outDir),
    'web-host': () => build.buildWebHost(outDir),
  };
  const out = new Map<BundleName, Metafile>();
  for (const name of names) out.set(name, await steps[name]());
  return out;
}

/** Every module a bundle (its entry and its chunks) loads by name at run time, sorted. */
export function bareImports(metafile: Metafile): string[] {
  const names = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const { path, external } of output.imports)
      if (external && !path.startsWith('.') && !path.startsWith('/')) names.add(path);
  }
  return [...names].sort();
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** Imports the installed app could not satisfy: not `electron`, not a Node built-in, not a production package. */
export function unshippedImports(imports: string[], production: Set<string>): string[] {
  return imports.filter(
    (path) => !isBuiltin(path) && packageOf(path) !== 'electron' && !production.has(packageOf(path)),
  );
}

/** package-lock.json's part read here: each installed package's folder, and whether only development needs it. */
interface Lockfile {
  packages: Record<string, { dev?: boolean }>;
}

/**
 * The production packages' folders (the root excluded): package-lock.json's packages that npm does
 * not mark `dev`, where installed (an optional one for another platform is not): the folders
 * `npm ls --omit=dev --all --parseable` lists, read in milliseconds where npm took ≈ 1 s of CPU
 * for each of the two files that ask.
 */
export function productionPackageDirs(): string[] {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Lockfile;
  const dirs = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !entry.dev)
    .map(([path]) => join(ROOT, path))
    .filter((dir) => existsSync(dir));
  if (dirs.length === 0) throw new Error('package-lock.json names no installed production package: run npm install');
  return dirs;
}

/** The production packages by name (read from each one's package.json). */
export function productionPackageNames(dirs = productionPackageDirs()): Set<string> {
  return new Set(
    dirs.map((dir) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name),
  );
}

/**
 * A folder shaped like the installed app: package.json, and a node_modules holding links to the
 * production packages only (each top-level one; nested ones come inside their parent's folder).
 * Costs milliseconds, where a production install would take minutes.
 */
export function productionApp(appDir: string, dirs = productionPackageDirs()): void {
  const modules = join(ROOT, 'node_modules');
  mkdirSync(join(appDir, 'node_modules'), { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(appDir, 'package.json'));
  for (const dir of dirs) {
    const rel = relative(modules, dir);
    if (rel.startsWith('..') || rel.split(sep).includes('node_modules')) continue;
    const link = join(appDir, 'node_modules', rel);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(dir, link, 'junction');
  }
}
