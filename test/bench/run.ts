/**
 * `npm run bench [-- --quick] [--synthetic N] [--connections N] [--duration S] [--rounds N] [--write]`
 *
 * One run measures, against a fresh SQLite catalog: a bare node:http baseline and the service's
 * main read paths over real sockets (the load client is a child process, so client and server each
 * get a core), then Kysely against raw better-sqlite3 for the same queries. Every row is measured
 * in several rounds and the round the rest of the machine disturbed least is kept. Prints markdown;
 * `--write` puts it into docs/BENCHMARKS.md between the generated-block markers.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { startBaseline } from './baseline.ts';
import { machineBusyMs, markdown, writeResults, type Report } from './report.ts';
import { httpScenarios, type FromClient, type Scenario, type ScenarioResult } from './scenarios.ts';
import { createBenchDb, sampleMovieIds, startService, type BenchDb } from './setup.ts';
import { storageBenchmarks, type MicroResult } from './storage.ts';

interface Options {
  synthetic: number;
  connections: number;
  rounds: number;
  durationMs: number;
  warmupMs: number;
  storageMs: number;
  write: boolean;
}

function parseArgs(argv: string[]): Options {
  const quick = argv.includes('--quick');
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    if (i < 0) return undefined;
    const n = Number(argv[i + 1]);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} needs a number`);
    return n;
  };
  return {
    synthetic: value('--synthetic') ?? 0,
    connections: value('--connections') ?? 16,
    rounds: Math.max(1, value('--rounds') ?? (quick ? 1 : 3)),
    durationMs: (value('--duration') ?? (quick ? 1.5 : 3)) * 1000,
    warmupMs: quick ? 500 : 700,
    storageMs: quick ? 300 : 700,
    write: argv.includes('--write'),
  };
}

type HttpRow = ScenarioResult & { serverCpu: number; otherCpu: number };

/** The load client in its own process, and a way to run one scenario on it. */
async function startClient(consumer: { key: string; secret: string }) {
  const child: ChildProcess = fork(fileURLToPath(new URL('./client.ts', import.meta.url)), [], {
    env: { ...process.env, BENCH_CONSUMER: JSON.stringify({ key: consumer.key, secret: consumer.secret }) },
  });
  const signMicros = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: FromClient) => (m.type === 'ready' ? resolve(m.signMicros) : reject(new Error('client: unexpected message'))));
    child.once('exit', (code) => reject(new Error(`client exited (${code})`)));
  });
  /** Runs one scenario; server and machine CPU are sampled at the client's window edges. */
  const run = (scenario: Scenario) =>
    new Promise<HttpRow>((resolve, reject) => {
      let cpuStart = process.cpuUsage();
      let machineStart = machineBusyMs();
      let wallStart = performance.now();
      let serverCpu = 0;
      let machineCpu = 0;
      const onMessage = (m: FromClient) => {
        if (m.type === 'window' && m.edge === 'start') {
          cpuStart = process.cpuUsage();
          machineStart = machineBusyMs();
          wallStart = performance.now();
        } else if (m.type === 'window' && m.edge === 'end') {
          const wall = performance.now() - wallStart;
          const used = process.cpuUsage(cpuStart);
          serverCpu = (used.user + used.system) / 1000 / wall;
          machineCpu = (machineBusyMs() - machineStart) / wall;
        } else if (m.type === 'result') {
          child.off('message', onMessage);
          child.off('exit', onExit);
          // Whatever the machine did beyond our two processes (other jobs on a shared machine).
          resolve({ ...m.result, serverCpu, otherCpu: Math.max(0, machineCpu - serverCpu - m.result.clientCpu) });
        }
      };
      const onExit = (code: number | null) => reject(new Error(`client exited during "${scenario.name}" (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ type: 'run', scenario });
    });
  return { signMicros, run, stop: () => void (child.connected && child.send({ type: 'exit' })) };
}

/** Of several measurements of one row, the one other processes disturbed least. */
function quietest<T extends { otherCpu: number }>(a: T | undefined, b: T): T {
  return a === undefined || b.otherCpu < a.otherCpu ? b : a;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const log = (text: string) => process.stderr.write(text + '\n');
  const cores = (x: number) => x.toFixed(2);

  log(`load average ${os.loadavg().map(cores).join(' ')} on ${os.cpus().length} cores`);
  log(`loading the demo catalog${options.synthetic ? ` and ${options.synthetic} synthetic titles` : ''} into a fresh SQLite file…`);
  const bench = await createBenchDb(options.synthetic);
  try {
    await measureAll(options, bench, log);
  } finally {
    await bench.drop();
  }
}

/** The HTTP rows, then the storage rows, then the report. */
async function measureAll(options: Options, bench: BenchDb, log: (text: string) => void): Promise<void> {
  const cores = (x: number) => x.toFixed(2);
  const movieIds = await sampleMovieIds(bench.db, 200);
  const baseline = await startBaseline();
  const service = await startService(bench.db);
  const client = await startClient(bench.consumer);

  const scenarios = httpScenarios({
    baselinePort: baseline.port, servicePort: service.port, movieIds,
    connections: options.connections, warmupMs: options.warmupMs, durationMs: options.durationMs,
  });
  const best: Array<HttpRow | undefined> = scenarios.map(() => undefined);
  try {
    for (let round = 1; round <= options.rounds; round++) {
      for (const [i, scenario] of scenarios.entries()) {
        const row = await client.run(scenario);
        const unexpected = Object.keys(row.statuses).filter((code) => Number(code) !== scenario.expectStatus);
        const warning = unexpected.length > 0 || row.errors > 0 ? `  WARNING statuses ${JSON.stringify(row.statuses)}, ${row.errors} socket errors` : '';
        log(`round ${round} · ${scenario.name}: ${Math.round(row.rps)} req/s, other processes ${cores(row.otherCpu)} cores${warning}`);
        best[i] = quietest(best[i], row);
      }
    }
  } finally {
    client.stop();
    await service.app.close();
    await baseline.close();
  }

  let storage: MicroResult[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    log(`round ${round} · storage: Kysely vs raw better-sqlite3…`);
    const rows = await storageBenchmarks(bench.db, bench.path, movieIds, options.storageMs);
    storage = rows.map((row, i) => quietest(storage[i], row));
  }

  const args = process.argv.slice(2).filter((a) => a !== '--write');
  const report: Report = {
    date: new Date().toISOString().slice(0, 10),
    loadAverage: os.loadavg()[0]!,
    command: `npm run bench${args.length ? ' -- ' + args.join(' ') : ''}`,
    titles: bench.titles,
    loadSeconds: bench.loadSeconds,
    connections: options.connections,
    durationMs: options.durationMs,
    rounds: options.rounds,
    signMicros: client.signMicros,
    http: best.map((row, i) => ({ ...row!, note: scenarios[i]!.note })),
    storage,
  };
  const block = markdown(report);
  console.log(block);
  if (options.write) {
    const file = fileURLToPath(new URL('../../docs/BENCHMARKS.md', import.meta.url));
    writeResults(file, block);
    log(`wrote ${file}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
