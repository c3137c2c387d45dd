import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../../../electron/core/compose.ts';
import { ensureDefaultProfile, openNodeSettings } from '../../../electron/core/settings/index.ts';
import { buildServer } from '../../../service/server.ts';
import { urlOf } from '../../helpers/fetch-input.ts';
import { freePort } from '../../helpers/postgres-server.ts';
import type { BenchRow, BenchScenario } from '../registry.ts';
import { streamSubscribers } from '../stream-subscribers.ts';
import { sleep } from './stream-node.ts';

/** The target: the app's requests per idle minute, nothing changing. */
const MAX_PER_MINUTE = 2;
const IDLE_MS = 60_000;
/** Start-up is over once the stream is open and the core has asked nothing for this long. */
const SETTLED_MS = 3_000;

/** One request the core made, by method and path, with its answer's status once it came. */
interface Exchange {
  what: string;
  status: number;
}

/** The core's fetch, recording each request it makes. */
function recordingFetch(into: Exchange[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(urlOf(input));
    const entry = { what: `${init?.method ?? 'GET'} ${url.pathname}`, status: 0 };
    into.push(entry);
    const res = await fetch(input, init);
    entry.status = res.status;
    return res;
  };
}

/** Waits until the core holds its change stream and has been quiet for SETTLED_MS (at most 60 s). */
async function settled(exchanges: Exchange[]): Promise<void> {
  const until = Date.now() + 60_000;
  let seen = -1;
  let quietSince = Date.now();
  while (Date.now() < until) {
    if (exchanges.length !== seen) [seen, quietSince] = [exchanges.length, Date.now()];
    const streaming = exchanges.some((e) => e.what.endsWith('/changes') && e.status === 200);
    if (streaming && Date.now() - quietSince >= SETTLED_MS) return;
    await sleep(100);
  }
  throw new Error(`the core did not settle: ${JSON.stringify(exchanges)}`);
}

/**
 * C6: the app's core as the hosts compose it (the availability watcher on, the change stream held),
 * signed in against a real service (SQLite, demo catalog) and showing the instant queue; once
 * start-up is over, nobody touches it for a minute: every HTTP request the core makes is counted.
 */
export const scenario: BenchScenario = {
  id: 'C6',
  title: "the app's requests per idle minute, holding the change stream",
  async run(ctx): Promise<BenchRow[]> {
    const live = await ctx.service(0);
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const app = buildServer({ db: live.bench.db, baseUrl });
    await app.listen({ host: '127.0.0.1', port });
    ctx.onCleanup(() => app.close());
    const { consumer } = live.bench;
    const [sub] = await streamSubscribers(live.bench.db, 'c6', 1, () => consumer);
    const dir = mkdtempSync(join(tmpdir(), 'marquee-bench-c6-'));
    ctx.onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    const settings = openNodeSettings({ dir, onWarning: () => {} });
    ensureDefaultProfile(settings, { baseUrl, consumerKey: consumer.key, consumerSecret: consumer.secret });
    settings.setTokens('embedded', { token: sub!.token.key, secret: sub!.token.secret, userId: sub!.userId });

    const exchanges: Exchange[] = [];
    const core = createCore({
      userDataDir: dir,
      settings,
      openExternal: () => false,
      fetch: recordingFetch(exchanges),
      log: (m, e) => ctx.log(`  core: ${m}: ${e instanceof Error ? e.message : String(e)}`),
      watchAlerts: true,
      liveUpdates: true,
    });
    ctx.onCleanup(() => core.close());
    const shown = await core.dispatch('queue.list', { kind: 'instant' });
    if (!shown.ok) throw new Error(`queue.list: ${JSON.stringify(shown.error)}`);
    await settled(exchanges);
    const startup = exchanges.length;
    ctx.log(`  start-up made ${startup} requests; idle for ${IDLE_MS / 1000} s…`);
    await sleep(IDLE_MS);
    const idle = exchanges.slice(startup);
    const byWhat = new Map<string, number>();
    for (const e of idle) byWhat.set(e.what, (byWhat.get(e.what) ?? 0) + 1);
    const listed = [...byWhat].map(([what, n]) => `${what} ×${n}`).join(', ');
    return [
      {
        scenario: 'C6',
        figure: `app core (alerts watcher on, change stream held), signed in and showing the instant queue, nobody touching it: HTTP requests in one idle minute after start-up (start-up made ${startup}: ${[...new Set(exchanges.slice(0, startup).map((e) => e.what.replace(sub!.userId, 'UID')))].join(', ')})`,
        value: String(idle.length),
        target: `≤ ${MAX_PER_MINUTE} a minute`,
        met: idle.length <= MAX_PER_MINUTE,
        note: idle.length ? listed.replaceAll(sub!.userId, 'UID') : 'none: the stream stayed open, heartbeats only',
      },
    ];
  },
};
