import { openDb } from '../../../service/store/db.ts';
import type { BenchRow, BenchScenario } from '../registry.ts';
import { createBenchDb, sampleMovieIds } from '../setup.ts';
import { postgresStore } from '../stores.ts';
import { sourceAddress, startStreamClients } from '../stream-clients-process.ts';
import { streamSubscribers, unlimitedConsumer } from '../stream-subscribers.ts';
import { millis } from './figures.ts';
import { flag, percentile, streamNode } from './stream-node.ts';

/** The bound: a write on node 1 reaches a stream on node 2 within 1 s. */
const WITHIN_MS = 1_000;

/**
 * S11: two service nodes, each with its own connection pool and LISTEN connection, on one durable
 * embedded PostgreSQL database. A client process holds the subscriber's stream on node 2 and
 * rates one title per write on node 1, in turn (`--writes`, 200): from each write's answer to its
 * event on the stream, the change having gone through PostgreSQL alone (the change table and NOTIFY).
 */
export const scenario: BenchScenario = {
  id: 'S11',
  title: 'a write on node 1 to its event on node 2, one PostgreSQL',
  async run(ctx): Promise<BenchRow[]> {
    const writes = Math.max(1, Math.floor(flag('--writes', 200)));
    const store = await postgresStore(await ctx.postgresServer());
    ctx.log('  loading the demo catalog into a fresh PostgreSQL database for two nodes…');
    const bench = await createBenchDb(0, store);
    ctx.onCleanup(() => bench.drop());
    const second = await openDb(store.location);
    ctx.onCleanup(() => second.close());
    const node1 = await streamNode(ctx, bench.db);
    const node2 = await streamNode(ctx, second);
    const consumer = await unlimitedConsumer(bench.db, 'S11 app');
    const [sub] = await streamSubscribers(bench.db, 's11', 1, () => consumer);
    const titleIds = await sampleMovieIds(bench.db, writes);
    if (titleIds.length < writes) throw new Error(`only ${titleIds.length} movies to rate`);

    const clients = await startStreamClients();
    ctx.onCleanup(() => clients.stop());
    const spec = { ...sub!, localAddress: sourceAddress(0) };
    const opened = await clients.send({ type: 'open', port: node2.port, streams: [spec], inFlight: 1 }, 'opened');
    if (opened.ready !== 1) throw new Error(`the stream on node 2 did not open: ${JSON.stringify(opened.refused)}`);
    const timed = await clients.send(
      { type: 'latency', stream: opened.firstIndex, writePort: node1.port, spec, titleIds },
      'latencies',
    );
    await clients.send({ type: 'close' }, 'closed');
    const max = Math.max(...timed.ms);
    return [
      {
        scenario: 'S11',
        figure: `a write (a rating) answered by node 1 to its event on a stream held by node 2, one PostgreSQL (durable), ${writes} writes in turn: p50 / p99 (max ${millis(max)}; timed by the client from the write's answer; ${timed.eventFirst} events came before their answer, counted 0; from the write sent: p50 ${millis(percentile(timed.fromSent, 50))}, p99 ${millis(percentile(timed.fromSent, 99))})`,
        value: `${millis(percentile(timed.ms, 50))} / ${millis(percentile(timed.ms, 99))}`,
        target: `every write within ${WITHIN_MS / 1000} s`,
        met: max <= WITHIN_MS,
      },
    ];
  },
};
