// What the shipped bundles may import (docs/ARCHITECTURE.md, "What the installed app ships"):
// production packages written in JavaScript are compiled into dist/; only `electron`, Node's
// built-ins and native addons (better-sqlite3) stay imports, loaded at run time.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';

/** Provided by the Electron runtime, never by node_modules. */
export const RUNTIME_MODULES = ['electron'];

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
export function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The folder `name` resolves to from `fromDir`, the way Node looks it up (nearest node_modules first). */
function installedDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

function readManifest(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/** A package's run-time requirements: dependencies, optional dependencies and peers (npm installs peers). */
function requirementsOf(manifest, isRoot) {
  const optional = new Set([
    ...Object.keys(manifest.optionalDependencies ?? {}),
    ...Object.entries(manifest.peerDependenciesMeta ?? {})
      .filter(([, m]) => m?.optional)
      .map(([n]) => n),
  ]);
  const names = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
    ...(isRoot ? [] : Object.keys(manifest.peerDependencies ?? {})),
  ]);
  return [...names].map((name) => ({ name, optional: optional.has(name) }));
}

/**
 * The production dependency tree of the package at `root`, as installed: what `npm ls --omit=dev
 * --all` lists, by package name. `absent` holds optional packages that are not installed (pg's
 * `pg-native`); `missing` required ones that are not (an incomplete install).
 */
export function productionPackages(root) {
  const dirs = new Map();
  const absent = new Set();
  const missing = new Set();
  const seen = new Set();
  const queue = [{ dir: root, isRoot: true }];
  while (queue.length > 0) {
    const { dir, isRoot } = queue.shift();
    const real = realpathSync(dir);
    if (seen.has(real)) continue;
    seen.add(real);
    for (const { name, optional } of requirementsOf(readManifest(dir), isRoot)) {
      const found = installedDir(name, dir);
      if (!found) {
        (optional ? absent : missing).add(name);
        continue;
      }
      if (!dirs.has(name)) dirs.set(name, found);
      queue.push({ dir: found, isRoot: false });
    }
  }
  for (const name of dirs.keys()) absent.delete(name);
  return { dirs, absent, missing };
}

/** A native addon must be loaded from node_modules, rebuilt for Electron's ABI (electron-builder's npmRebuild). */
export function isNativeAddon(dir) {
  return existsSync(join(dir, 'binding.gyp')) || readManifest(dir).gypfile === true;
}

/**
 * The esbuild plugin that applies the rule: a bare import of a production package is bundled,
 * unless it is a native addon; `electron` and built-ins stay imports; an optional package that is
 * not installed becomes a module that throws as `require` would; anything else (a dev-only
 * package) is left as an import with a warning, so the installed app's import check names it.
 */
export function productionOnly(root) {
  const { dirs, absent } = productionPackages(root);
  return {
    name: 'production-only',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, ({ path, kind }) => {
        if (kind === 'entry-point' || isBuiltin(path)) return undefined;
        const name = packageName(path);
        if (RUNTIME_MODULES.includes(name)) return { path, external: true };
        if (absent.has(name)) return { path: name, namespace: 'absent-optional' };
        const dir = dirs.get(name);
        if (!dir) {
          const text = `"${name}" is not a production dependency: add it to "dependencies" in package.json (the installed app has only those)`;
          return { path, external: true, warnings: [{ text }] };
        }
        return isNativeAddon(dir) ? { path, external: true } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'absent-optional' }, ({ path }) => ({
        contents: `throw Object.assign(new Error(${JSON.stringify(`Cannot find module '${path}' (an optional package, not installed)`)}), { code: 'MODULE_NOT_FOUND' });`,
        loader: 'js',
      }));
    },
  };
}

/**
 * An ES module bundle holding CommonJS packages needs `require` for their built-in imports, and
 * `__dirname`/`__filename` for the few that read them (they then name the bundle's own folder).
 */
export const NODE_ESM_BANNER = [
  "import { createRequire as __marqueeCreateRequire } from 'node:module';",
  "import { fileURLToPath as __marqueeFileURLToPath } from 'node:url';",
  'const require = __marqueeCreateRequire(import.meta.url);',
  'const __filename = __marqueeFileURLToPath(import.meta.url);',
  "const __dirname = __marqueeFileURLToPath(new URL('.', import.meta.url));",
].join('\n');
