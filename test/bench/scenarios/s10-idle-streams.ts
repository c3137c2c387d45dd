import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  STREAM_RETRY_AFTER_SECONDS,
  TOO_MANY_FOR_CONSUMER,
  TOO_MANY_FOR_USER,
  defaultStreamLimits,
} from '../../../service/resources/changes/hub.ts';
import { HEARTBEAT_SLOTS } from '../../../service/resources/changes/heartbeats.ts';
import { EventStreamClient } from '../../helpers/event-stream.ts';
import type { BenchRow, BenchScenario } from '../registry.ts';
import { sourceAddress, startStreamClients, type StreamClients } from '../stream-clients-process.ts';
import { streamSubscribers, unlimitedConsumer, type StreamSubscriber } from '../stream-subscribers.ts';
import type { StreamSpec } from '../stream-clients.ts';
import { millis } from './figures.ts';
import { dropSlowClient } from './slow-client.ts';
import { flag, mb, memoryNow, percentile, sleep, streamNode } from './stream-node.ts';

const LIMITS = defaultStreamLimits('sqlite');
/** The bound: a node holds 10,000 idle streams with RSS growth ≤ 150 MB. */
const RSS_GROWTH_MB = 150;
/** The event loop's sampling interval: the histogram holds each interval, so the delay is what exceeds it. */
const RESOLUTION_MS = 10;
/** The idle window's first part, at most: its event loop's delay is measured then, its CPU after. */
const DELAY_MS = 30_000;
/** The idle CPU is read in slices this long, so a collection shows apart from the steady cost. */
const SLICE_MS = 5_000;
/** CPU measured with the node up and no stream open, before they open. */
const FLOOR_MS = 5_000;
/** Writes whose event is timed on a stream of the full node. */
const WRITES = 20;

const row = (figure: string, value: string, target: string, met: boolean | undefined, note?: string): BenchRow => ({
  scenario: 'S10',
  figure,
  value,
  target,
  met,
  note,
});

/** One more stream of `who` on the node, from the bench's own address: its status, Retry-After and words. */
async function oneMore(port: number, who: StreamSubscriber): Promise<{ status: number; retry: string; body: string }> {
  const s = await EventStreamClient.open(
    `http://127.0.0.1:${port}`,
    `/users/${who.userId}/changes`,
    who.consumer,
    who.token,
  );
  s.close();
  return { status: s.status, retry: s.headers.get('retry-after') ?? '', body: s.body };
}

/** A refusal as the contract says: 429, Retry-After, a `<status>` body with these words. */
function refusedRow(what: string, got: { status: number; retry: string; body: string }, words: string): BenchRow {
  const ok =
    got.status === 429 &&
    got.retry === String(STREAM_RETRY_AFTER_SECONDS) &&
    got.body.includes('<status_code>429</status_code>') &&
    got.body.includes(`<message>${words}</message>`);
  return row(what, `${got.status}, Retry-After ${got.retry || 'none'}`, `429 with the status body: “${words}”`, ok);
}

/**
 * S10: one node (SQLite) holding `--streams` (10,000) idle change streams from clients in a process
 * of their own, spread over subscribers (8 each) and applications (2,000 each); its bounds checked at
 * that size, its memory, CPU and event loop while they idle, one write's way to its stream, and a
 * client that stops reading dropped.
 */
export const scenario: BenchScenario = {
  id: 'S10',
  title: 'idle change streams on one node (SQLite), their bounds and cost',
  async run(ctx): Promise<BenchRow[]> {
    const count = Math.max(16, Math.floor(flag('--streams', 10_000)));
    const idleMs = flag('--stream-idle', 90) * 1000;
    if (idleMs > 0 && idleMs < 10_000) throw new Error('--stream-idle needs 0 (none) or at least 10 seconds');
    const live = await ctx.service(0);
    const node = await streamNode(ctx, live.bench.db);
    const consumers = await Promise.all(
      Array.from({ length: Math.ceil(count / LIMITS.perConsumer) }, (_, i) =>
        unlimitedConsumer(live.bench.db, `S10 app ${i}`),
      ),
    );
    const consumerOf = (stream: number) => consumers[Math.floor(stream / LIMITS.perConsumer)]!;
    const subs = await streamSubscribers(live.bench.db, 's10', Math.ceil(count / LIMITS.perUser), (u) =>
      consumerOf(u * LIMITS.perUser),
    );
    const [spare] = await streamSubscribers(live.bench.db, 's10-spare', 1, () => consumers[0]!);
    const specs: StreamSpec[] = Array.from({ length: count }, (_, i) => ({
      ...subs[Math.floor(i / LIMITS.perUser)]!,
      localAddress: sourceAddress(i),
    }));
    const clients = await startStreamClients();
    ctx.onCleanup(() => clients.stop());

    const floorMs = idleMs > 0 ? FLOOR_MS : 0;
    const floor = { ms: floorMs, ...(floorMs > 0 ? await cpuOver(floorMs) : { share: 0 }) };
    const before = memoryNow();
    ctx.log(`  opening ${count.toLocaleString('en-US')} streams…`);
    const opened = await clients.send({ type: 'open', port: node.port, streams: specs, inFlight: 100 }, 'opened');
    ctx.log(`  ${opened.ready} open in ${(opened.ms / 1000).toFixed(1)} s; refused ${JSON.stringify(opened.refused)}`);
    await sleep(2_000);
    const held = memoryNow();
    const rssGrowth = held.rss - before.rss;
    const perStream = (bytes: number) => `${((bytes / opened.ready) | 0).toLocaleString('en-US')} B a stream`;

    const rows: BenchRow[] = [
      row(
        `streams open on one node (SQLite; ${subs.length.toLocaleString('en-US')} subscribers × ≤ ${LIMITS.perUser}, ${consumers.length} applications × ≤ ${LIMITS.perConsumer.toLocaleString('en-US')}; clients in a process of their own over ${Math.ceil(count / 200)} loopback addresses; opened in ${(opened.ms / 1000).toFixed(1)} s)`,
        opened.ready.toLocaleString('en-US'),
        '≥ 10,000 idle streams',
        count >= 10_000 ? opened.ready >= 10_000 : undefined,
        Object.keys(opened.refused).length ? `refused: ${JSON.stringify(opened.refused)}` : undefined,
      ),
      row(
        `service RSS growth with them open (${mb(before.rss)} → ${mb(held.rss)}: ${perStream(rssGrowth)}; after a full GC)`,
        mb(rssGrowth),
        `≤ ${RSS_GROWTH_MB} MB`,
        count >= 10_000 ? rssGrowth <= RSS_GROWTH_MB * 2 ** 20 : undefined,
      ),
      row(
        `service heap used with them open (${mb(before.heap)} → ${mb(held.heap)}: ${perStream(held.heap - before.heap)})`,
        mb(held.heap - before.heap),
        'recorded',
        undefined,
      ),
      refusedRow(
        `a ${LIMITS.perUser + 1}th stream of one subscriber`,
        await oneMore(node.port, subs[0]!),
        TOO_MANY_FOR_USER,
      ),
    ];
    if (count >= LIMITS.perConsumer)
      rows.push(
        refusedRow(
          `a ${(LIMITS.perConsumer + 1).toLocaleString('en-US')}st stream of one application (its subscriber holds none)`,
          await oneMore(node.port, spare!),
          TOO_MANY_FOR_CONSUMER,
        ),
      );
    if (idleMs > 0) rows.push(...(await idleRows(clients, opened.ready, idleMs, floor)));

    const timed = await clients.send(
      {
        type: 'latency',
        stream: opened.firstIndex + LIMITS.perUser,
        writePort: node.port,
        spec: specs[LIMITS.perUser]!,
        titleIds: live.movieIds.slice(0, WRITES),
      },
      'latencies',
    );
    rows.push(
      row(
        `a write (a rating) to its event on the subscriber's stream, with ${opened.ready.toLocaleString('en-US')} streams open: p50 (max ${millis(Math.max(...timed.ms))}; ${WRITES} writes in turn, timed by the client from the write's answer; ${timed.eventFirst} events came before their answer, counted 0; from the write sent: p50 ${millis(percentile(timed.fromSent, 50))}, max ${millis(Math.max(...timed.fromSent))})`,
        millis(percentile(timed.ms, 50)),
        'recorded',
        undefined,
      ),
    );
    rows.push(await dropSlowClient(ctx, live, node, clients, count));
    await clients.send({ type: 'close' }, 'closed');
    return rows;
  },
};

/** CPU of the bench's process over `ms`, as a share of one core, and the milliseconds it used. */
async function cpuOver(ms: number): Promise<{ share: number; usedMs: number }> {
  const cpu = process.cpuUsage();
  await sleep(ms);
  const used = process.cpuUsage(cpu);
  const usedMs = (used.user + used.system) / 1000;
  return { share: usedMs / ms, usedMs };
}

/**
 * The node while nothing changes. First its event loop's delay, over a third of the window (at most
 * 30 s): V8 collects once or twice in those seconds after the streams opened, and the monitor's own
 * wake-ups (every 10 ms) cost more CPU than the idle node, so it runs apart. Then the node's CPU over
 * the rest, in 5 s slices (their median is the steady cost; the total includes any later
 * collection); and every stream's heartbeats.
 */
async function idleRows(clients: StreamClients, open: number, idleMs: number, floor: Floor): Promise<BenchRow[]> {
  const since = Date.now();
  const delayMs = Math.min(DELAY_MS, idleMs / 3);
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  await sleep(delayMs);
  delay.disable();
  const cpuMs = idleMs - delayMs;
  const slices: { share: number; usedMs: number }[] = [];
  for (let left = cpuMs; left > 0; left -= SLICE_MS) slices.push(await cpuOver(Math.min(SLICE_MS, left)));
  const usedMs = slices.reduce((sum, slice) => sum + slice.usedMs, 0);
  const sliceShares = slices.map((slice) => slice.share);
  const quiet = await clients.send({ type: 'quiet-since', since }, 'quiet');
  const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
  const beats = Math.floor(idleMs / LIMITS.heartbeatMs);
  const late = (ns: number) => millis(Math.max(0, ns / 1e6 - RESOLUTION_MS));
  const percent = (share: number) => `${(share * 100).toFixed(2)}% of a core`;
  return [
    row(
      `service CPU while ${open.toLocaleString('en-US')} streams idle (${seconds(cpuMs)}, from ${seconds(delayMs)} after the last request: a heartbeat to each every ${LIMITS.heartbeatMs / 1000} s, spread over the period, and SQLite asked every ${LIMITS.pollMs / 1000} s whether anything was committed; in ${seconds(SLICE_MS)} slices: median ${percent(percentile(sliceShares, 50))}, max ${percent(Math.max(...sliceShares))}; the same process before the streams opened: ${percent(floor.share)} over ${seconds(floor.ms)})`,
      percent(usedMs / cpuMs),
      'no CPU while nothing changes',
      undefined,
      `${usedMs.toFixed(0)} ms of CPU in ${seconds(cpuMs)}`,
    ),
    row(
      `event loop delay while they idle: p50 (over the first ${seconds(delayMs)}: p99 ${late(delay.percentile(99))}, max ${late(delay.max)}; a heartbeat tick writes to 1/${HEARTBEAT_SLOTS} of the streams)`,
      late(delay.percentile(50)),
      'recorded',
      undefined,
    ),
    row(
      `streams still open after ${seconds(idleMs)} idle, each having heard a heartbeat in it`,
      `${quiet.heardFrom.toLocaleString('en-US')} of ${quiet.open.toLocaleString('en-US')}`,
      'every idle stream kept open',
      beats >= 1 ? quiet.closed === 0 && quiet.heardFrom === open : undefined,
      quiet.closed ? `${quiet.closed} closed` : undefined,
    ),
  ];
}

/** The process's CPU with the node up and no stream open: what the idle rows are read against. */
interface Floor {
  share: number;
  ms: number;
}
