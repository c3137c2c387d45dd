import type { FastifyInstance } from 'fastify';
import { startPostgres } from '../helpers/postgres-server.ts';
import { startBaseline } from './baseline.ts';
import { cpuOverWindow, type WindowEdge } from './service-cpu.ts';
import { startClients, type LoadClient } from './client-process.ts';
import type { BenchOptions } from './options.ts';
import type { Scenario, ScenarioResult } from './scenarios.ts';
import { createBenchDb, sampleMovieIds, startService, type BenchDb } from './setup.ts';
import { keptSqliteStore, postgresStore, sqliteStore, type BenchDialect, type BenchStore } from './stores.ts';

export type { BenchDialect } from './stores.ts';

/** A catalog in a fresh database (SQLite file or PostgreSQL) with the service listening on loopback and a load client for it. */
export interface LiveService {
  dialect: BenchDialect;
  bench: BenchDb;
  app: FastifyInstance;
  port: number;
  movieIds: number[];
  /** The run's load client, signing with this catalog's consumer unless a scenario names another. */
  client: Pick<LoadClient, 'run'>;
}

/** The bare node:http server's figures: requests a second, and its CPU per request (it runs in this process). */
export interface Baseline {
  port: number;
  rps: number;
  cpuUs: number;
}

/** How many client processes the run uses, and the bare server's rate with each count tried. */
export interface ClientSetup {
  client: LoadClient;
  tried: Array<{ processes: number; rps: number; cpuUs: number }>;
}

/** A client process count is kept only if it drives the bare server this much faster than one fewer. */
const FASTER_BY = 1.05;
const MAX_CLIENT_PROCESSES = 4;
/** What the bare server's requests are signed with: the client does the same work as for the service (the server ignores it). */
const BASELINE_CONSUMER = { key: 'bench-baseline-consumer', secret: 'bench-baseline-secret' };

/** What scenarios share: options, a log, lazily started services (each started once, stopped at the end). */
export class BenchContext {
  private readonly cleanups: Array<() => Promise<void> | void> = [];
  private readonly services = new Map<string, Promise<LiveService>>();
  private baseline: Promise<Baseline> | undefined;
  private setup: Promise<ClientSetup> | undefined;
  private postgres: Promise<string> | undefined;
  private bare: Promise<{ port: number }> | undefined;

  constructor(
    readonly options: BenchOptions,
    readonly log: (text: string) => void,
  ) {}

  /** The demo catalog (synthetic = 0) or the demo catalog plus `synthetic` invented titles, on SQLite or PostgreSQL. */
  service(synthetic = 0, dialect: BenchDialect = 'sqlite'): Promise<LiveService> {
    const key = `${dialect}:${synthetic}`;
    let live = this.services.get(key);
    if (!live) {
      live = this.startService(synthetic, dialect);
      this.services.set(key, live);
    }
    return live;
  }

  private async startService(synthetic: number, dialect: BenchDialect): Promise<LiveService> {
    const store = await this.storeFor(synthetic, dialect);
    const where =
      dialect === 'postgres'
        ? 'a fresh PostgreSQL database'
        : store.loaded
          ? `the file kept in ${this.options.catalogDir}`
          : 'a fresh SQLite file';
    this.log(
      `${store.loaded ? 'opening' : 'loading'} the demo catalog${synthetic ? ` + ${synthetic.toLocaleString('en-US')} synthetic titles` : ''} in ${where}…`,
    );
    const bench = await createBenchDb(synthetic, store);
    this.onCleanup(() => bench.drop());
    this.log(`  ${bench.titles.toLocaleString('en-US')} titles in ${bench.loadSeconds.toFixed(1)} s`);
    const { app, port } = await startService(bench.db);
    this.onCleanup(() => app.close());
    const client = {
      run: async (s: Scenario, onWindow?: (edge: WindowEdge) => void) =>
        (await this.clientSetup()).client.run({ consumer: bench.consumer, ...s }, onWindow),
    };
    return { dialect, bench, app, port, movieIds: await sampleMovieIds(bench.db, 200), client };
  }

  /** A fresh database, or with `--catalogs DIR` a SQLite file kept there for a synthetic catalog (loaded once, reused). */
  private async storeFor(synthetic: number, dialect: BenchDialect): Promise<BenchStore> {
    if (dialect === 'postgres') return postgresStore(await this.postgresServer());
    return this.options.catalogDir && synthetic > 0
      ? keptSqliteStore(this.options.catalogDir, synthetic)
      : sqliteStore();
  }

  /** An embedded PostgreSQL server with its default durability (fsync on), once per run, stopped at the end: its URL without a database. */
  postgresServer(): Promise<string> {
    this.postgres ??= (async () => {
      this.log('starting an embedded PostgreSQL server (durable: fsync, synchronous_commit, full_page_writes on)…');
      const started = performance.now();
      const server = await startPostgres('durable');
      this.onCleanup(() => server.stop());
      this.log(`  PostgreSQL up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return server.url;
    })();
    return this.postgres;
  }

  /** The same-run baseline: the bare server's rate and CPU with the client setup the run uses. */
  async baselineRps(): Promise<Baseline> {
    this.baseline ??= (async () => {
      const { client, tried } = await this.clientSetup();
      const chosen = tried.find((t) => t.processes === client.processes)!;
      return { port: (await this.bareServer()).port, rps: chosen.rps, cpuUs: chosen.cpuUs };
    })();
    return this.baseline;
  }

  /**
   * The load client, so that it is never what limits a row: the bare server driven with one
   * client process, then two, and so on while each added process makes it > 5% faster; the
   * last count that did is used for every row of the run. Never more processes than the run's
   * connections: one beyond them gets none (client-process.ts), so what it seemed to add is noise.
   */
  clientSetup(): Promise<ClientSetup> {
    this.setup ??= (async () => {
      const tried: ClientSetup['tried'] = [];
      let kept: LoadClient | undefined;
      const fixed = this.options.clients;
      const most = fixed || Math.max(1, Math.min(MAX_CLIENT_PROCESSES, this.options.connections));
      for (let processes = fixed || 1; processes <= most; processes++) {
        // Grown from the last count's processes rather than started afresh: each start costs a tsx boot.
        const grown = kept ? await kept.withOneMore() : undefined;
        const client = grown ?? (await startClients(processes));
        this.onCleanup(() => client.stop());
        const figures = await this.driveBareServer(client);
        tried.push({ processes, ...figures });
        this.log(
          `  bare node:http server, fixed 4 KB body, ${processes} client process${processes > 1 ? 'es' : ''}: ${Math.round(figures.rps)} req/s, ${Math.round(figures.cpuUs)} µs of server CPU a request`,
        );
        const previous = tried[tried.length - 2];
        if (previous && figures.rps <= previous.rps * FASTER_BY) {
          grown?.stopAdded();
          break;
        }
        kept = client;
      }
      this.log(`  client setup: ${describeSetup({ client: kept!, tried })}`);
      return { client: kept!, tried };
    })();
    return this.setup;
  }

  /** The client setup as the report prints it, once a row has used it. */
  async clientsUsed(): Promise<string | undefined> {
    return this.setup ? describeSetup(await this.setup, this.options.connections) : undefined;
  }

  private bareServer(): Promise<{ port: number }> {
    this.bare ??= (async () => {
      const server = await startBaseline();
      this.onCleanup(() => server.close());
      return server;
    })();
    return this.bare;
  }

  private async driveBareServer(client: LoadClient): Promise<{ rps: number; cpuUs: number }> {
    const { port } = await this.bareServer();
    const scenario = this.load({
      name: 'baseline',
      port,
      paths: ['/catalog/titles/movies/60000100?expand=synopsis,cast,directors'],
      consumer: BASELINE_CONSUMER,
    });
    const { result, cpuMs } = await cpuOverWindow((onWindow) => client.run(scenario, onWindow));
    return { rps: result.rps, cpuUs: (cpuMs * 1000) / result.requests };
  }

  /** A load-client scenario with the run's defaults. */
  load(s: Partial<Scenario> & Pick<Scenario, 'name' | 'port' | 'paths'>): Scenario {
    return {
      note: '',
      headers: {},
      sign: true,
      conditional: false,
      expectStatus: 200,
      connections: this.options.connections,
      warmupMs: this.options.warmupMs,
      durationMs: this.options.durationMs,
      ...s,
    };
  }

  /** Runs a scenario and warns when answers were not the expected status; `onWindow` sees the measured window open and close. */
  async measure(live: LiveService, scenario: Scenario, onWindow?: (edge: WindowEdge) => void): Promise<ScenarioResult> {
    const result = await live.client.run(scenario, onWindow);
    const unexpected = Object.keys(result.statuses).filter((code) => Number(code) !== scenario.expectStatus);
    if (unexpected.length > 0 || result.errors > 0)
      this.log(
        `  WARNING ${scenario.name}: statuses ${JSON.stringify(result.statuses)}, ${result.errors} socket errors`,
      );
    return result;
  }

  onCleanup(fn: () => Promise<void> | void): void {
    this.cleanups.push(fn);
  }

  /** Stops everything the run started, newest first. */
  async close(): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      try {
        await fn();
      } catch (error) {
        this.log(`cleanup: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

/** "2 processes × 25 connections (bare server: 1 → 18,769/s, 2 → 24,113/s)". */
export function describeSetup(setup: ClientSetup, connections?: number): string {
  const n = setup.client.processes;
  const split = connections === undefined ? '' : ` × ${Math.ceil(connections / n)} connections`;
  const tried = setup.tried.map((t) => `${t.processes} → ${Math.round(t.rps).toLocaleString('en-US')}/s`).join(', ');
  const rule =
    setup.tried.length > 1 || n === 1
      ? 'a process is added while it makes the bare server > 5% faster'
      : 'fixed by --clients';
  return `${n} client process${n > 1 ? 'es' : ''}${split} (bare server with ${tried}; ${rule})`;
}
