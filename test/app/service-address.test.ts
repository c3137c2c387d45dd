import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serviceDataDir, startEmbeddedService } from '../../electron/embedded-service.ts';
import { servicePortFile, superviseEmbeddedService } from '../../electron/service-address.ts';
import { superviseService, type ServiceRun } from '../../electron/service-supervisor.ts';
import { ensureDefaultProfile, openNodeSettings } from '../../electron/core/settings/index.ts';
import { copyDemoStore } from '../helpers/service.ts';

/**
 * One address for life (electron/service-address.ts): the embedded service's port is chosen once,
 * kept in the user-data folder and asked for at every launch; a port another program holds still
 * lets the service start, on a free port kept from then on, and the settings remember the old
 * address so what the app stored is mapped.
 */
let dir: string;
const lines: string[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-address-'));
  copyDemoStore(serviceDataDir(dir));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One launch's service, as both hosts start it. */
const launch = () =>
  superviseEmbeddedService({
    userDataDir: dir,
    start: (port) => startEmbeddedService({ userDataDir: dir, port }),
    log: (line) => lines.push(line),
  });
const keptPort = () => (JSON.parse(readFileSync(servicePortFile(dir), 'utf8')) as { port: number }).port;

test('a second launch asks for the port of the first and gets it: the same base URL', async () => {
  const first = await launch();
  const { port, url } = first;
  await first.stop();
  expect(keptPort()).toBe(port);

  const second = await launch();
  try {
    expect(second.port).toBe(port);
    expect(second.url).toBe(url);
    expect((await fetch(`${second.url}/oauth/login`)).status).toBeLessThan(500);
  } finally {
    await second.stop();
  }
}, 120_000);

test('a port another program holds: the service starts on a free one, kept from then on, and the old address is remembered', async () => {
  const before = keptPort();
  const settings = openNodeSettings({ dir, onWarning: () => {} });
  const oldUrl = `http://127.0.0.1:${before}`;
  ensureDefaultProfile(settings, { baseUrl: oldUrl, consumerKey: 'k', consumerSecret: 's' });
  const squatter = await hold(before);
  let moved;
  try {
    moved = await launch();
  } finally {
    await new Promise((done) => squatter.close(done));
  }
  try {
    expect(moved.port).not.toBe(before);
    expect((await fetch(`${moved.url}/oauth/login`)).status).toBeLessThan(500);
    expect(keptPort()).toBe(moved.port);
    expect(lines.some((line) => line.includes(`Port ${before} is taken`))).toBe(true);
    // The host's core then points the profile at the new address: the old one is kept for mapping.
    ensureDefaultProfile(settings, { baseUrl: moved.url, consumerKey: 'k', consumerSecret: 's' });
    expect(settings.getProfile('embedded')!.baseUrl).toBe(moved.url);
    expect(settings.formerBaseUrls('embedded')).toEqual([oldUrl]);
    expect(openNodeSettings({ dir, onWarning: () => {} }).formerBaseUrls('embedded')).toEqual([oldUrl]);
  } finally {
    await moved.stop();
  }
}, 120_000);

test('a first start refused on the port asked for is made again on any free port', async () => {
  const asked: number[] = [];
  const run = (port: number): ServiceRun => ({
    url: `http://127.0.0.1:${port}`,
    consumer: { key: 'k', secret: 's' },
    port,
    pid: undefined,
    exited: new Promise(() => {}),
    stop: async () => {},
  });
  const supervisor = await superviseService({
    port: 4711,
    start: (port) => {
      asked.push(port);
      if (port === 4711)
        return Promise.reject(new Error('The embedded service exited before it was ready.\nEADDRINUSE'));
      return Promise.resolve(run(5000));
    },
  });
  expect(asked).toEqual([4711, 0]);
  expect(supervisor.port).toBe(5000);
  await supervisor.stop();
});

/** Listens on 127.0.0.1:`port`, as another program holding it would. */
function hold(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
