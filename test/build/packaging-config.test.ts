import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { ROOT } from '../helpers/service-process.ts';

/**
 * build/electron-builder.yml as `npm run dist` reads it: loaded and checked by electron-builder's
 * own code against its schema (a misspelt option fails here, not on a release machine), with the
 * Electron fuses that close the usual ways to run other code inside the signed app.
 */

interface BuilderConfig {
  electronFuses?: Record<string, boolean>;
  files?: { filter: string[] }[];
  extraMetadata?: { main?: string };
  asar?: boolean;
}
interface ConfigModule {
  getConfig: (projectDir: string, configPath: string, configFromOptions: null) => Promise<BuilderConfig>;
  validateConfiguration: (config: BuilderConfig, debugLogger: unknown) => Promise<void>;
}

const require = createRequire(join(ROOT, 'node_modules', 'electron-builder', 'package.json'));
let config: BuilderConfig;

beforeAll(async () => {
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as ConfigModule;
  const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  config = await getConfig(ROOT, join(ROOT, 'build', 'electron-builder.yml'), null);
  await validateConfiguration(config, new DebugLogger(false));
}, 30_000);

test('electron-builder accepts the configuration', () => {
  expect(config.extraMetadata?.main).toBe('dist/main.mjs');
  expect(config.asar).toBe(true);
});

test('the fuses turn off run-as-node, NODE_OPTIONS and --inspect, and load the app only from a checked app.asar', () => {
  expect(config.electronFuses).toMatchObject({
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    onlyLoadAppFromAsar: true,
    enableEmbeddedAsarIntegrityValidation: true,
  });
});

test('the package takes the built app from dist/, without source maps or the web host', () => {
  expect(config.files?.[0]?.filter).toEqual(['dist/**/*', '!dist/**/*.map', '!dist/web-host*', 'package.json']);
});
