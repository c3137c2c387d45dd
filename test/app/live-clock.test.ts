import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../electron/core/app-core.ts';
import { createCore } from '../../electron/core/compose.ts';
import type { Events } from '../../shared/ipc.ts';
import { buildServer } from '../../service/server.ts';
import {
  instantTitles,
  recordingFetch,
  startLiveCore,
  valueOf,
  type Exchange,
  type LiveCoreEnv,
} from './helpers/live-core.ts';

/** The service's clock runs this far ahead of the app's machine: beyond the ±300 s window. */
const SKEW_S = 3_600;

/**
 * Issue 26, item 2: the change stream is signed on the transport's corrected clock. On a machine
 * whose clock is an hour off, the stream's first request is refused ("Timestamp Is Invalid"), the
 * core learns the service's clock once, as the transport does, and the stream opens: no loop of 401s.
 */
describe('the change stream on a skewed clock', () => {
  let env: LiveCoreEnv;
  let skewed: FastifyInstance;
  let core: AppCore;
  let dir: string;
  const exchanges: Exchange[] = [];
  const shown: Array<Events['queue.changed']> = [];

  beforeAll(async () => {
    env = await startLiveCore({ core: { liveUpdates: false } });
    await env.stopService();
    skewed = buildServer({
      db: env.svc.db,
      baseUrl: env.svc.url,
      now: () => Math.floor(Date.now() / 1000) + SKEW_S,
    });
    await skewed.listen({ port: Number(new URL(env.svc.url).port), host: '127.0.0.1' });
    dir = mkdtempSync(join(tmpdir(), 'marquee-live-clock-'));
    core = createCore({
      userDataDir: dir,
      settings: env.settings,
      openExternal: () => false,
      fetch: recordingFetch(exchanges),
      log: () => {},
      watchAlerts: false,
      liveUpdates: true,
    });
    core.on('queue.changed', (e) => shown.push(e));
  }, 60_000);

  afterAll(async () => {
    await core?.close();
    await skewed?.close();
    await env?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const streamAnswers = () => exchanges.filter((e) => e.url.endsWith('/changes')).map((e) => e.status);

  it("learns the service's clock after one refusal and opens the stream", async () => {
    await expect.poll(() => streamAnswers().includes(200), { timeout: 10_000 }).toBe(true);
    expect(streamAnswers().filter((s) => s === 401)).toHaveLength(1);
    expect(exchanges.filter((e) => e.url.includes('/oauth/clock/time'))).toHaveLength(1);
  });

  it("tells another device's move through the stream opened on the corrected clock", async () => {
    const [title] = await instantTitles(env.other, 1);
    const before = valueOf(await core.dispatch('queue.list', { kind: 'instant' }));
    const from = shown.length;
    await env.other.queueAdd('instant', title!.ref, before.etag);
    await expect
      .poll(() => shown.slice(from).some((e) => e.queue.items.some((i) => i.ref === title!.ref)), {
        timeout: 2_000,
        interval: 50,
      })
      .toBe(true);
    expect(streamAnswers().filter((s) => s === 401)).toHaveLength(1);
  });
});
