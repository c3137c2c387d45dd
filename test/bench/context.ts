import type { FastifyInstance } from 'fastify';
import { startBaseline } from './baseline.ts';
import { startClient, type LoadClient } from './client-process.ts';
import type { BenchOptions } from './options.ts';
import type { Scenario, ScenarioResult } from './scenarios.ts';
import { createBenchDb, sampleMovieIds, startService, type BenchDb } from './setup.ts';

/** A catalog in a fresh SQLite file with the service listening on loopback and a load client for it. */
export interface LiveService {
  bench: BenchDb;
  app: FastifyInstance;
  port: number;
  movieIds: number[];
  client: LoadClient;
}

/** What scenarios share: options, a log, lazily started services (each started once, stopped at the end). */
export class BenchContext {
  private readonly cleanups: Array<() => Promise<void> | void> = [];
  private readonly services = new Map<number, Promise<LiveService>>();
  private baseline: Promise<{ port: number; rps: number }> | undefined;

  constructor(readonly options: BenchOptions, readonly log: (text: string) => void) {}

  /** The demo catalog (synthetic = 0) or the demo catalog plus `synthetic` invented titles. */
  service(synthetic = 0): Promise<LiveService> {
    let live = this.services.get(synthetic);
    if (!live) {
      live = this.startService(synthetic);
      this.services.set(synthetic, live);
    }
    return live;
  }

  private async startService(synthetic: number): Promise<LiveService> {
    this.log(`loading the demo catalog${synthetic ? ` + ${synthetic.toLocaleString('en-US')} synthetic titles` : ''} into a fresh SQLite file…`);
    const bench = await createBenchDb(synthetic);
    this.onCleanup(() => bench.drop());
    this.log(`  ${bench.titles.toLocaleString('en-US')} titles in ${bench.loadSeconds.toFixed(1)} s`);
    const { app, port } = await startService(bench.db);
    this.onCleanup(() => app.close());
    const client = await startClient(bench.consumer);
    this.onCleanup(() => client.stop());
    return { bench, app, port, movieIds: await sampleMovieIds(bench.db, 200), client };
  }

  /** The same-run baseline: a bare node:http server answering a fixed 4 KB XML body, same load client. */
  baselineRps(): Promise<{ port: number; rps: number }> {
    this.baseline ??= (async () => {
      const server = await startBaseline();
      this.onCleanup(() => server.close());
      const live = await this.service(0);
      const result = await live.client.run(this.load({ name: 'baseline', port: server.port, paths: ['/hello'], sign: false }));
      this.log(`  baseline: node:http, fixed 4 KB body: ${Math.round(result.rps)} req/s`);
      return { port: server.port, rps: result.rps };
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
