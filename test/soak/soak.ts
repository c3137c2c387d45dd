import { openDb } from '../../service/store/db.ts';
import { quantile } from './histogram.ts';
import type { Mix, WorkerReport } from './mix.ts';
import { startNode, type SoakNode } from './nodes.ts';
import { soakAccounts } from './setup.ts';
import { postgresSoakStore, sqliteSoakStore, type SoakStore } from './store.ts';
import { startWorkers } from './workers.ts';

/** How a soak runs: `npm run bench -- --only SOAK`, `npm run soak`, and the short one in npm test. */
export interface SoakOptions {
  database: 'sqlite' | 'postgres';
  /** Service processes on the store (PostgreSQL only may have more than one). */
  nodes: number;
  connections: number;
  /** Load worker processes sharing the connections. */
  clients: number;
  /** One report line per interval (a minute in the bench), `intervals` of them. */
  intervalMs: number;
  intervals: number;
  mix: Mix;
  subscribers?: number;
  /** A running PostgreSQL server's URL without a database (for `database: 'postgres'`). */
  postgresServer?: () => Promise<string>;
  log(line: string): void;
}

/** One interval of a soak: the load's figures and each node's memory, the hot-path tables at its end. */
export interface SoakInterval {
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  statuses: Record<string, number>;
  /** The load workers' CPU over the interval, in cores. */
  clientCores: number;
  nodes: Array<{ rssMb: number; rssPeakMb: number; heapUsedMb: number; heapPeakMb: number }>;
  rows: Record<string, number>;
  dataMb: number;
}

export interface SoakRun {
  options: Omit<SoakOptions, 'log' | 'postgresServer'>;
  /** The nodes' RSS once started, before any load. */
  startRssMb: number[];
  intervals: SoakInterval[];
  /** A few failed requests as the workers saw them. */
  errorSamples: string[];
}

/**
 * The soak: a fresh store (the first node start loads the demo catalog; then the soak's accounts
 * are added), `nodes` service processes on it, and the mix at full speed from `clients` worker
 * processes over `connections` keep-alive connections. Each interval prints a line and is kept.
 */
export async function runSoak(options: SoakOptions): Promise<SoakRun> {
  if (options.database === 'sqlite' && options.nodes !== 1)
    throw new Error('a SQLite store has one node (one process owns the file); --nodes needs --database postgres');
  const store =
    options.database === 'sqlite' ? sqliteSoakStore() : await postgresSoakStore(await options.postgresServer!());
  const nodes: SoakNode[] = [];
  try {
    options.log(
      `soak: loading the demo catalog into a fresh ${options.database === 'sqlite' ? 'SQLite file' : 'PostgreSQL database'}…`,
    );
    await (await startNode(store.location)).stop();
    const db = await openDb(store.location);
    const accounts = await soakAccounts(db, options.subscribers ?? 20, options.connections);
    await db.close();
    nodes.push(...(await Promise.all(Array.from({ length: options.nodes }, () => startNode(store.location)))));
    const startRssMb = nodes.map((n) => n.rssMb());
    options.log(
      `soak: ${options.nodes} node(s) (the service's launcher, ports ${nodes.map((n) => n.port).join(', ')}), ${options.connections} connections from ${options.clients} load process(es), ${options.intervals} × ${options.intervalMs / 1000} s, mix ${JSON.stringify(options.mix)}`,
    );
    const workers = await startWorkers(options.clients, {
      ...accounts,
      ports: nodes.map((n) => n.port),
      connections: options.connections,
      mix: options.mix,
    });
    const intervals: SoakInterval[] = [];
    const errorSamples: string[] = [];
    try {
      for (let i = 0; i < options.intervals; i++) {
        const interval = await measureInterval(options.intervalMs, nodes, store, () => workers.report(), errorSamples);
        intervals.push(interval);
        options.log(line(i + 1, interval, options.intervalMs));
      }
    } finally {
      await workers.stop();
    }
    return { options: { ...options }, startRssMb, intervals, errorSamples };
  } finally {
    for (const node of nodes) await node.stop().catch(() => undefined);
    await store.remove();
  }
}

/** Waits out one interval, sampling each node's memory every second, then takes the load's counts and the tables. */
async function measureInterval(
  ms: number,
  nodes: SoakNode[],
  store: SoakStore,
  report: () => Promise<WorkerReport>,
  errorSamples: string[],
): Promise<SoakInterval> {
  const started = performance.now();
  const peaks = nodes.map(() => ({ rss: 0, heap: 0 }));
  const sample = () =>
    nodes.forEach((n, i) => {
      peaks[i]!.rss = Math.max(peaks[i]!.rss, n.rssMb());
      const heap = n.heapUsedMb();
      if (Number.isFinite(heap)) peaks[i]!.heap = Math.max(peaks[i]!.heap, heap);
    });
  const sampler = setInterval(sample, 1000);
  await new Promise((r) => setTimeout(r, ms));
  clearInterval(sampler);
  sample();
  const load = await report();
  const seconds = (performance.now() - started) / 1000;
  const { rows, dataMb } = await store.footprint();
  errorSamples.push(...load.samples.slice(0, Math.max(0, 20 - errorSamples.length)));
  return {
    seconds,
    requests: load.requests,
    rps: load.requests / seconds,
    p50: quantile(load.histogram, 0.5),
    p99: quantile(load.histogram, 0.99),
    errors: load.errors,
    statuses: load.statuses,
    clientCores: load.cpuSeconds / seconds,
    nodes: nodes.map((n, i) => ({
      rssMb: n.rssMb(),
      rssPeakMb: peaks[i]!.rss,
      heapUsedMb: n.heapUsedMb(),
      heapPeakMb: peaks[i]!.heap,
    })),
    rows,
    dataMb,
  };
}

function line(n: number, x: SoakInterval, intervalMs: number): string {
  const at =
    intervalMs % 60_000 === 0 ? `min ${(n * intervalMs) / 60_000}` : `${((n * intervalMs) / 1000).toFixed(0)} s`;
  const nodes = x.nodes
    .map(
      (m, i) =>
        `node${i + 1} RSS ${m.rssMb.toFixed(0)} MB (peak ${m.rssPeakMb.toFixed(0)}), heap ${m.heapUsedMb.toFixed(0)} MB (peak ${m.heapPeakMb.toFixed(0)})`,
    )
    .join('; ');
  const rows = Object.entries(x.rows)
    .map(([t, r]) => `${t} ${r.toLocaleString('en-US')}`)
    .join(', ');
  return `${at}: ${Math.round(x.rps).toLocaleString('en-US')} req/s, p99 ${x.p99.toFixed(1)} ms, errors ${x.errors} | ${nodes} | rows: ${rows} | data ${x.dataMb.toFixed(0)} MB | client ${x.clientCores.toFixed(2)} cores`;
}
