import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serviceDataDir, startEmbeddedService } from '../../electron/embedded-service.ts';
import {
  superviseService,
  withServiceEvents,
  type ServiceChange,
  type ServiceRun,
  type ServiceSupervisor,
} from '../../electron/service-supervisor.ts';
import type { AppCore } from '../../electron/core/app-core.ts';
import { copyDemoStore } from '../helpers/service.ts';

/**
 * The embedded service's supervision (electron/service-supervisor.ts): a real service process
 * killed comes back on the same port and data; with made-up starts, the backoff, the events and
 * the end of supervision.
 */

/** Resolves with the next change the supervisor tells. */
function nextChange(supervisor: ServiceSupervisor, state: ServiceChange['state']): Promise<void> {
  return new Promise((resolve) => {
    const off = supervisor.onChange((change) => {
      if (change.state !== state) return;
      off();
      resolve();
    });
  });
}

describe('a real service process', () => {
  let dir: string;
  let supervisor: ServiceSupervisor;
  const changes: ServiceChange[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-supervised-'));
    copyDemoStore(serviceDataDir(dir));
    supervisor = await superviseService({ start: (port) => startEmbeddedService({ userDataDir: dir, port }) });
    supervisor.onChange((change) => changes.push(change));
  }, 120_000);

  afterAll(async () => {
    await supervisor?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  test('killed, it is started again on the same port, with the same data and consumer', async () => {
    const { url, port, consumer } = supervisor;
    expect(port).toBeGreaterThan(0);
    expect(new URL(url).port).toBe(String(port));
    const signInPage = await fetch(`${url}/oauth/login`);
    expect(signInPage.status).toBeLessThan(500);
    const pid = servicePid(supervisor);
    const back = nextChange(supervisor, 'back');
    process.kill(pid, 'SIGKILL');
    await back;
    expect(changes.map((c) => c.state)).toEqual(['restarting', 'back']);
    expect(supervisor.port).toBe(port);
    expect(supervisor.url).toBe(url);
    expect(supervisor.consumer).toEqual(consumer);
    expect(servicePid(supervisor)).not.toBe(pid);
    expect((await fetch(`${url}/oauth/login`)).status).toBe(signInPage.status);
  }, 120_000);

  test('stopped by the app, it stays stopped', async () => {
    const pid = servicePid(supervisor);
    await supervisor.stop();
    expect(alive(pid)).toBe(false);
    await expect(fetch(`${supervisor.url}/oauth/login`)).rejects.toThrow();
    expect(changes.at(-1)?.state).toBe('back'); // no "restarting" after a stop
  }, 30_000);
});

/** The pid of the supervised run (the real adapter reports it). */
function servicePid(supervisor: ServiceSupervisor): number {
  if (!supervisor.pid) throw new Error('the supervisor does not report its process id');
  return supervisor.pid;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A made-up run: `die()` ends its process. */
function fakeRun(port: number): ServiceRun & { die(): void; stopped: boolean } {
  let die!: () => void;
  const exited = new Promise<void>((resolve) => (die = resolve));
  const run = {
    url: `http://127.0.0.1:${port}`,
    consumer: { key: 'k', secret: 's' },
    port,
    exited,
    pid: undefined,
    stopped: false,
    die,
    stop() {
      run.stopped = true;
      die();
      return Promise.resolve();
    },
  };
  return run;
}

describe('made-up starts', () => {
  test('the first start asks for any port, every restart for the one it got; failed restarts are retried', async () => {
    const asked: number[] = [];
    const runs: ReturnType<typeof fakeRun>[] = [];
    let failuresLeft = 3;
    const supervisor = await superviseService({
      backoff: { baseMs: 5, maxMs: 20 },
      start: (port) => {
        asked.push(port);
        if (port !== 0 && failuresLeft-- > 0) return Promise.reject(new Error('EADDRINUSE'));
        const run = fakeRun(port === 0 ? 41234 : port);
        runs.push(run);
        return Promise.resolve(run);
      },
    });
    const changes: string[] = [];
    supervisor.onChange((c) => changes.push(c.state));
    const back = nextChange(supervisor, 'back');
    runs[0]!.die();
    await back;
    expect(asked).toEqual([0, 41234, 41234, 41234, 41234]);
    expect(changes).toEqual(['restarting', 'back']);
    await supervisor.stop();
    expect(runs[1]!.stopped).toBe(true);
  });

  test('after endRestarts an exit is final, and a restart under way when stopped is stopped too', async () => {
    const runs: ReturnType<typeof fakeRun>[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let restartBegun!: () => void;
    const begun = new Promise<void>((resolve) => (restartBegun = resolve));
    const supervisor = await superviseService({
      start: async (port) => {
        if (port !== 0) {
          restartBegun();
          await held; // the restart is slow
        }
        const run = fakeRun(port || 40000);
        runs.push(run);
        return run;
      },
    });
    runs[0]!.die();
    await begun;
    const stopped = supervisor.stop();
    release();
    await stopped;
    expect(runs).toHaveLength(2);
    expect(runs[1]!.stopped).toBe(true);

    const ended = await superviseService({
      start: (port) => (runs.push(fakeRun(port || 40001)), Promise.resolve(runs.at(-1)!)),
    });
    const told: string[] = [];
    ended.onChange((c) => told.push(c.state));
    ended.endRestarts();
    runs.at(-1)!.die();
    await new Promise((r) => setImmediate(r)); // the exit is heard in a microtask: "restarting" would be told by now
    expect(told).toEqual([]);
    expect(runs).toHaveLength(3);
  });

  test('a host relays the supervisor’s changes as the core’s event, the rest from the core', () => {
    const heard: string[] = [];
    const core = {
      on: (event: string) => (heard.push(`core:${event}`), () => {}),
      dispatch: () => Promise.resolve({ ok: true }),
      close: async () => {},
    } as unknown as AppCore;
    let listener: ((c: ServiceChange) => void) | undefined;
    const relayed = withServiceEvents(core, { onChange: (l) => ((listener = l), () => {}) });
    const changes: ServiceChange[] = [];
    relayed.on('service.changed', (c) => changes.push(c));
    relayed.on('queue.changed', () => {});
    listener!({ state: 'restarting' });
    expect(changes).toEqual([{ state: 'restarting' }]);
    expect(heard).toEqual(['core:queue.changed']);
  });
});
