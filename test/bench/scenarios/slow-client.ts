/** S10's slow client (not a scenario): a stream whose reader stops while its subscriber's queue keeps changing. */
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { defaultStreamLimits } from '../../../service/resources/changes/hub.ts';
import { availableTitleIds } from '../../helpers/catalog-picks.ts';
import { signedFetch } from '../../helpers/signed-fetch.ts';
import type { BenchContext, LiveService } from '../context.ts';
import type { BenchRow } from '../registry.ts';
import type { StreamClients } from '../stream-clients-process.ts';
import { streamSubscribers, unlimitedConsumer } from '../stream-subscribers.ts';
import { BENCH_BASE, sleep } from './stream-node.ts';

/** The slow client's own loopback address, so the service's side of its connection is known. */
const SLOW_ADDRESS = '127.0.1.250';
/** Titles per bulk replace: each replace swaps them all, one event per title that enters or leaves. */
const TITLES = 250;
/** Replaces at most before the scenario gives up on seeing the client dropped. */
const MAX_WRITES = 400;

/**
 * Opens one stream, pauses its socket, then replaces the subscriber's instant queue with one list
 * and then another until the service closes its side of the connection (the client's backlog past
 * `maxBufferedBytes` plus what the kernel's buffers hold); then reads again, to see the stream end.
 */
export async function dropSlowClient(
  ctx: BenchContext,
  live: LiveService,
  node: { app: FastifyInstance; port: number },
  clients: StreamClients,
  streamsBefore: number,
): Promise<BenchRow> {
  const consumer = await unlimitedConsumer(live.bench.db, 'S10 slow reader');
  const [slow] = await streamSubscribers(live.bench.db, 's10-slow', 1, () => consumer);
  let serverSide: Socket | undefined;
  const watch = (socket: Socket) => void (socket.remoteAddress === SLOW_ADDRESS && (serverSide = socket));
  node.app.server.on('connection', watch);
  const opened = await clients.send(
    { type: 'open', port: node.port, streams: [{ ...slow!, localAddress: SLOW_ADDRESS }], inFlight: 1 },
    'opened',
  );
  node.app.server.off('connection', watch);
  if (opened.ready !== 1 || !serverSide) throw new Error(`the slow stream did not open: ${JSON.stringify(opened)}`);
  let dropped = false;
  serverSide.once('close', () => (dropped = true));
  await clients.send({ type: 'pause', stream: opened.firstIndex }, 'paused');

  const ids = await availableTitleIds(live.bench.db, 'movie', 'instant', 2 * TITLES);
  const lists = [ids.slice(0, TITLES), ids.slice(TITLES)].map((l) =>
    l.map((id) => `${BENCH_BASE}/catalog/titles/movies/${id}`).join(','),
  );
  const path = `/users/${slow!.userId}/queues/instant`;
  let writes = 0;
  const rssBefore = process.memoryUsage().rss;
  while (!dropped && writes < MAX_WRITES) {
    const res = await signedFetch(
      `http://127.0.0.1:${node.port}`,
      consumer,
      slow!.token,
      'POST',
      path,
      {
        title_ref: lists[writes % 2]!,
      },
      { 'x-http-method-override': 'PUT' },
    );
    if (res.status !== 200) throw new Error(`a bulk replace answered ${res.status}: ${res.body.slice(0, 200)}`);
    writes++;
    await sleep(20); // the node reads the change table and writes the events between replaces
  }
  const rssGrowth = process.memoryUsage().rss - rssBefore;
  const resumed = await clients.send({ type: 'resume', stream: opened.firstIndex, waitMs: 10_000 }, 'resumed');
  const limit = defaultStreamLimits('sqlite').maxBufferedBytes / 1024;
  ctx.log(`  slow client: dropped after ${writes} replaces; it read ${resumed.bytes} bytes, ended ${resumed.ended}`);
  return {
    scenario: 'S10',
    figure: `a client that stops reading (its socket paused) while its subscriber's queue is replaced again and again (${TITLES} titles in, ${TITLES} out each time), beside ${streamsBefore.toLocaleString('en-US')} idle streams: replaces until the service closed the connection (the client then read ${(resumed.bytes / 2 ** 20).toFixed(1)} MB, ${resumed.events.toLocaleString('en-US')} events, and the end; the service's RSS meanwhile ${rssGrowth >= 0 ? '+' : ''}${(rssGrowth / 2 ** 20).toFixed(1)} MB)`,
    value: dropped ? `dropped after ${writes}` : `not dropped after ${writes}`,
    target: `dropped once ${limit} KiB wait for it`,
    met: dropped && resumed.ended,
  };
}
