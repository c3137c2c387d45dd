import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppCore } from '../../../electron/core/app-core.ts';
import { createCore } from '../../../electron/core/compose.ts';
import { ensureDefaultProfile, openNodeSettings } from '../../../electron/core/settings/index.ts';
import type { OperationName } from '../../../shared/ipc.ts';
import type { Result } from '../../../shared/models.ts';
import { buildServer } from '../../../service/server.ts';
import { createUser } from '../../../service/store/subscriber/users.ts';
import { freePort } from '../../helpers/postgres-server.ts';
import type { BenchContext } from '../context.ts';
import type { BenchRow, BenchScenario } from '../registry.ts';

/**
 * C1: the app's real core (createCore, its transport and ETag cache) over a scripted browse
 * session against the service on loopback: 5 searches, 4 titles viewed from each (20 title
 * views, each asking what the signed-in title panel asks: the title, its queue states and the
 * subscriber's rating), the queue views; then the same again. Every HTTP exchange is counted at the core's
 * fetch, with its status: what crossed the wire, and which answers were 304.
 */

const SEARCHES = ['the', 'love', 'night', 'star', 'man'];
const TITLES_PER_SEARCH = 4;
/** What the app's screens ask for: a page of 24 results; the whole queue (the service's 500 at most). */
const RESULTS_PER_PAGE = 24;
const QUEUE_VIEWS = [
  { kind: 'instant', view: 'all', max: 500 },
  { kind: 'instant', view: 'available', max: 500 },
  { kind: 'disc', view: 'all', max: 500 },
] as const;
/** What the signed-in title panel asks for beside the title itself (renderer/queries/title.ts). */
const PANEL_OPERATIONS = ['titles.states', 'ratings.get'] as const;
/** Titles put in the instant queue before the session (not counted), so its views have something to show. */
const QUEUED_TITLES = 30;
const SUBSCRIBER = {
  login: 'c1-bench@example.com',
  password: 'c1-bench-password',
  firstName: 'Casey',
  lastName: 'Bench',
  acceptedTos: true,
};

/** One HTTP exchange of the core, labelled by the operation that made it. */
interface Exchange {
  op: string;
  status: number;
}

interface Pass {
  exchanges: Exchange[];
  /** Requests made by each title view. */
  perTitleView: number[];
}

export const scenario: BenchScenario = {
  id: 'C1',
  title: 'the app core over a scripted browse session, twice',
  async run(ctx) {
    const session = await openSession(ctx);
    try {
      const first = await browse(session);
      const second = await browse(session);
      return rows(first, second);
    } finally {
      await session.close();
    }
  },
};

interface Session {
  core: AppCore;
  /** The exchanges since the last take, labelled by `label`'s current value. */
  take(): Exchange[];
  label(op: string): void;
  close(): Promise<void>;
}

/**
 * The bench's demo catalog and unlimited consumer (ctx.service(0)) behind a service of its own
 * whose ids and links name its real port, so the core follows them as it would in the app; a
 * subscriber signed in through the core's own OAuth flow; the instant queue filled.
 */
async function openSession(ctx: BenchContext): Promise<Session> {
  const { bench } = await ctx.service(0);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = buildServer({ db: bench.db, baseUrl });
  await app.listen({ host: '127.0.0.1', port });
  const dir = mkdtempSync(join(tmpdir(), 'marquee-bench-c1-'));
  const settings = openNodeSettings({ dir, onWarning: () => {} });
  ensureDefaultProfile(settings, { baseUrl, consumerKey: bench.consumer.key, consumerSecret: bench.consumer.secret });
  await createUser(bench.db, SUBSCRIBER);
  let exchanges: Exchange[] = [];
  let op = 'setup';
  const countingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    exchanges.push({ op, status: res.status });
    return res;
  };
  const core = createCore({
    userDataDir: dir,
    settings,
    openExternal: playBrowser,
    fetch: countingFetch,
    log: () => {},
    watchAlerts: false, // C1 counts the browse session's requests, not the availability watcher's
  });
  const session: Session = {
    core,
    take: () => exchanges.splice(0),
    label: (name) => {
      op = name;
    },
    async close() {
      await core.close();
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    valueOf(await core.dispatch('auth.signIn', {}));
    await fillInstantQueue(core);
  } catch (error) {
    await session.close();
    throw error;
  }
  exchanges = [];
  return session;
}

/** Plays the system browser for the core's sign-in: the service's page, the form posted, the redirect to the app followed. */
async function playBrowser(loginUrl: string): Promise<void> {
  const html = await (await fetch(loginUrl)).text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  if (!action) throw new Error('the sign-in page has no form');
  const hidden = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
  );
  const res = await fetch(action, {
    method: 'POST',
    body: new URLSearchParams({
      ...hidden,
      login: SUBSCRIBER.login,
      password: SUBSCRIBER.password,
      accept_tos: 'checked',
    }),
    redirect: 'follow',
  });
  await res.text();
}

async function fillInstantQueue(core: AppCore): Promise<void> {
  const found = valueOf(await core.dispatch('catalog.search', { term: 'the', max: 100 })).items;
  const instant = found.filter((t) => t.type === 'movie' && t.formats.includes('instant')).slice(0, QUEUED_TITLES);
  for (const title of instant) valueOf(await core.dispatch('queue.add', { kind: 'instant', ref: title.ref }));
}

/** One pass of the session: each search, then 4 of its titles viewed; then the queue views. */
async function browse(session: Session): Promise<Pass> {
  const perTitleView: number[] = [];
  const exchanges: Exchange[] = [];
  const run = async <N extends OperationName>(name: N, input: unknown) => {
    session.label(name);
    const result = valueOf(await session.core.dispatch(name, input));
    const made = session.take();
    exchanges.push(...made);
    return { result, made: made.length };
  };
  for (const term of SEARCHES) {
    const { result: page } = await run('catalog.search', { term, max: RESULTS_PER_PAGE });
    for (const title of page.items.slice(0, TITLES_PER_SEARCH)) {
      perTitleView.push((await run('catalog.title', { ref: title.ref })).made);
      for (const op of PANEL_OPERATIONS) await run(op, { refs: [title.ref] });
    }
  }
  for (const view of QUEUE_VIEWS) await run('queue.list', view);
  return { exchanges, perTitleView };
}

function rows(first: Pass, second: Pass): BenchRow[] {
  const notModified = second.exchanges.filter((e) => e.status === 304).length;
  const share = notModified / Math.max(1, second.exchanges.length);
  const views = [...first.perTitleView, ...second.perTitleView];
  const quota = [...first.exchanges, ...second.exchanges].filter((e) => e.status === 429).length;
  const titleViews = `${views.length} title views made ${views.reduce((a, b) => a + b, 0)} requests (fewest ${Math.min(...views)}, most ${Math.max(...views)})`;
  return [
    {
      scenario: 'C1',
      figure: 'app core browse session, second pass: requests answered 304 from the ETag cache',
      value: `${(share * 100).toFixed(0)}% (${notModified} of ${second.exchanges.length})`,
      target: '≥ 80%',
      met: share >= 0.8,
      note: `second pass by operation: ${byOperation(second.exchanges)}; quota refusals (429) over both passes: ${quota}`,
    },
    {
      scenario: 'C1',
      figure: 'app core browse session: requests per title view (catalog.title), both passes',
      value: views.every((n) => n === 1) ? '1' : `${Math.min(...views)}–${Math.max(...views)}`,
      target: 'exactly 1',
      met: views.length > 0 && views.every((n) => n === 1),
      note: titleViews,
    },
    {
      scenario: 'C1',
      figure: `app core browse session, first pass: requests (${SEARCHES.length} searches, ${first.perTitleView.length} title views with the signed-in panel's ${PANEL_OPERATIONS.join(' and ')}, ${QUEUE_VIEWS.length} queue views)`,
      value: String(first.exchanges.length),
      target: 'recorded',
      met: undefined,
      note: `by operation: ${byOperation(first.exchanges)}`,
    },
  ];
}

/** "catalog.title 20 (20× 304), …": requests per operation and how many were 304. */
function byOperation(exchanges: Exchange[]): string {
  const counts = new Map<string, { all: number; notModified: number }>();
  for (const e of exchanges) {
    const c = counts.get(e.op) ?? { all: 0, notModified: 0 };
    c.all += 1;
    if (e.status === 304) c.notModified += 1;
    counts.set(e.op, c);
  }
  return [...counts].map(([op, c]) => `${op} ${c.all} (${c.notModified}× 304)`).join(', ');
}

function valueOf<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`C1: the core answered ${result.error.kind}: ${result.error.message}`);
  return result.value;
}
