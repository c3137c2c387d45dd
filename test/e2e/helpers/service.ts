import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StartAppOptions } from './app.ts';
import { freePort } from '../../helpers/postgres-server.ts';
import { LAUNCHER_ENTRY, operator, startService, type RunningService } from '../../helpers/service-process.ts';
import { copyDemoStore } from '../../helpers/service.ts';

export { operator };

/**
 * A service the test controls, for the app to use instead of its embedded one: its own data
 * folder (a copy of the run's demo catalog), a fixed loopback port so it can be stopped and
 * started again at the same address, and the operator commands (consumers, quotas).
 */
export interface TestService {
  url: string;
  port: number;
  dataDir: string;
  demo: { login: string; password: string };
  /** The demo consumer's key and secret. */
  consumer: { key: string; secret: string };
  running: RunningService | null;
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** `consumers add --json`: a new application's key and secret. */
  addConsumer(name: string, extra?: string[]): Promise<{ key: string; secret: string }>;
  /** `consumers quota <key> …`. */
  setQuota(key: string, flags: string[]): Promise<void>;
  /** `catalog availability <id> …` (the operator's command, on this service's data while it runs): what it printed. */
  setAvailability(titleId: number, flags: string[]): Promise<string>;
  /** Stops it and removes its data. */
  dispose(): Promise<void>;
}

/** `consumers add --json` on a service's data folder (a running service reads it from its database). */
async function addConsumer(
  dataDir: string,
  name: string,
  extra: string[] = [],
): Promise<{ key: string; secret: string }> {
  const out = await operator(dataDir, ['consumers', 'add', '--name', name, '--json', ...extra]);
  return JSON.parse(out.trim().split('\n').pop()!) as { key: string; secret: string };
}

/** What `startApp({ service })` needs to talk to this service as its demo subscriber's app. */
export function serviceForApp(svc: TestService): NonNullable<StartAppOptions['service']> {
  return { url: svc.url, key: svc.consumer.key, secret: svc.consumer.secret, demo: svc.demo };
}

/** `extraArgs`: more service flags (e.g. `--no-bulk-replace`). */
export async function startTestService(extraArgs: string[] = []): Promise<TestService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'marquee-e2e-service-'));
  copyDemoStore(dataDir);
  const port = await freePort();
  const args = ['--data-dir', dataDir, '--host', '127.0.0.1', '--port', String(port), '--demo', ...extraArgs];
  const first = await startService(args, {}, LAUNCHER_ENTRY);
  const demoLine = /^demo sign-in: login (\S+), password (\S+)$/m.exec(first.output());
  const service: TestService = {
    url: first.localUrl,
    port,
    dataDir,
    demo: { login: demoLine?.[1] ?? '', password: demoLine?.[2] ?? '' },
    consumer: first.demo,
    running: first,
    async stop() {
      await service.running?.stop('SIGTERM');
      service.running = null;
    },
    async start() {
      if (!service.running) service.running = await startService(args, {}, LAUNCHER_ENTRY);
    },
    addConsumer(name, extra = []) {
      return addConsumer(dataDir, name, extra);
    },
    async setQuota(key, flags) {
      await operator(dataDir, ['consumers', 'quota', key, ...flags]);
    },
    setAvailability(titleId, flags) {
      return operator(dataDir, ['catalog', 'availability', String(titleId), ...flags]);
    },
    async dispose() {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return service;
}
