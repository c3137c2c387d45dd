import type { FastifyInstance } from 'fastify';
import { startPostgres } from '../helpers/postgres-server.ts';
import { startBaseline } from './baseline.ts';
import { cpuOverWindow } from './service-cpu.ts';
import { startClient, type LoadClient } from './client-process.ts';
import type { BenchOptions } from './options.ts';
import type { Scenario, ScenarioResult } from './scenarios.ts';
import { createBenchDb, sampleMovieIds, startService, type BenchDb } from './setup.ts';
import { postgresStore, sqliteStore, type BenchDialect } from './stores.ts';

export type { BenchDialect } from './stores.ts';

/** A catalog in a fresh database (SQLite file or PostgreSQL) with the service listening on loopback and a load client for it. */
export interface LiveService {
  dialect: BenchDialect;
  bench: BenchDb;
  app: FastifyInstance;
  port: number;
  movieIds: number[];
  client: LoadClient;
}

/** The bare node:http server's figures: requests a second, and its CPU per request (it runs in this process). */
export interface Baseline {
  port: number;
  rps: number;
  cpuUs: number;
}

/** What scenarios share: options, a log, lazily started services (each started once, stopped at the end). */
export class BenchContext {
  private readonly cleanups: Array<() => Promise<void> | void> = [];
  private readonly services = new Map<string, Promise<LiveService>>();
  private baseline: Promise<Baseline> | undefined;
  private postgres: Promise<string> | undefined;

  constructor(readonly options: BenchOptions, readonly log: (text: string) => void) {}

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
    const where = dialect === 'postgres' ? 'a fresh PostgreSQL database' : 'a fresh SQLite file';
    this.log(`loading the demo catalog${synthetic ? ` + ${synthetic.toLocaleString('en-US')} synthetic titles` : ''} into ${where}…`);
    const store = dialect === 'postgres' ? await postgresStore(await this.postgresServer()) : sqliteStore();
    const bench = await createBenchDb(synthetic, store);
    this.onCleanup(() => bench.drop());
    this.log(`  ${bench.titles.toLocaleString('en-US')} titles in ${bench.loadSeconds.toFixed(1)} s`);
    const { app, port } = await startService(bench.db);
    this.onCleanup(() => app.close());
    const client = await startClient(bench.consumer);
    this.onCleanup(() => client.stop());
    return { dialect, bench, app, port, movieIds: await sampleMovieIds(bench.db, 200), client };
  }

  /** An embedded PostgreSQL server (as the tests start it), once per run, stopped at the end: its URL without a database. */
  postgresServer(): Promise<string> {
    this.postgres ??= (async () => {
      this.log('starting an embedded PostgreSQL server…');
      const started = performance.now();
      const server = await startPostgres();
      this.onCleanup(() => server.stop());
      this.log(`  PostgreSQL up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return server.url;
    })();
    return this.postgres;
  }

  /** The same-run baseline: a bare node:http server answering a fixed 4 KB XML body, same load client. */
  baselineRps(): Promise<Baseline> {
    this.baseline ??= (async () => {
      const server = await startBaseline();
      this.onCleanup(() => server.close());
      const live = await this.service(0);
      const scenario = this.load({ name: 'baseline', port: server.port, paths: ['/hello'], sign: false });
      const { result, cpuMs } = await cpuOverWindow(scenario.warmupMs, () => live.client.run(scenario));
      const cpuUs = (cpuMs * 1000) / result.requests;
      this.log(`  baseline: node:http, fixed 4 KB body: ${Math.round(result.rps)} req/s, ${Math.round(cpuUs)} µs of CPU a request`);
      return { port: server.port, rps: result.rps, cpuUs };
    })();
    return this.baseline;
  }

  /** A load-client scenario with the run's defaults. */
  load(s: Partial<Scenario> & Pick<Scenario, 'name' | 'port' | 'paths'>): Scenario {
    return {
      note: '', headers: {}, sign: true, conditional: false, expectStatus: 200,
      connections: this.options.connections, warmupMs: this.options.warmupMs, durationMs: this.options.durationMs, ...s,
    };
  }

  /** Runs a scenario and warns when answers were not the expected status. */
  async measure(live: LiveService, scenario: Scenario): Promise<ScenarioResult> {
    const result = await live.client.run(scenario);
    const unexpected = Object.keys(result.statuses).filter((code) => Number(code) !== scenario.expectStatus);
    if (unexpected.length > 0 || result.errors > 0) this.log(`  WARNING ${scenario.name}: statuses ${JSON.stringify(result.statuses)}, ${result.errors} socket errors`);
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
