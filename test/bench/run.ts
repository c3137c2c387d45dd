/**
 * `npm run bench [-- --only S1,S5] [--synthetic N] [--large N] [--terms N] [--clients N] [--catalogs DIR] [--duration S] [--connections N] [--write|--no-write]`
 *
 * Runs the scenarios of test/bench/scenarios/ (all, or those named by --only): each starts what it
 * measures on loopback (services are shared between scenarios and started once), drives load from
 * a separate process, and returns rows. Prints a table; a full run rewrites the generated block of
 * docs/BENCHMARKS.md. Everything started is stopped at the end, also on failure.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { BenchContext } from './context.ts';
import { parseOptions } from './options.ts';
import { loadScenarios, type BenchRow } from './registry.ts';
import { markdown, table, writeResults } from './report.ts';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const options = parseOptions(argv);
  const log = (text: string) => process.stderr.write(text + '\n');
  // Every scenario when one named is not found: the error below then lists them all.
  const loaded = await loadScenarios(options.only);
  const unknown = options.only.filter((id) => !loaded.some((s) => s.id === id));
  if (unknown.length > 0)
    throw new Error(`unknown scenario ${unknown.join(', ')}; there are ${loaded.map((s) => s.id).join(', ')}`);
  const chosen = options.only.length > 0 ? loaded.filter((s) => options.only.includes(s.id)) : loaded;
  const started = performance.now();
  const loadStart = os.loadavg()[0]!;
  const ctx = new BenchContext(options, log);
  const rows: BenchRow[] = [];
  let failed = false;
  let clients: string | undefined;
  try {
    for (const s of chosen) {
      log(`${s.id}: ${s.title}`);
      try {
        rows.push(...(await s.run(ctx)));
      } catch (error) {
        failed = true;
        log(`${s.id} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        rows.push({
          scenario: s.id,
          figure: s.title,
          value: 'failed',
          target: '',
          met: false,
          note: error instanceof Error ? error.message.split('\n')[0] : String(error),
        });
      }
    }
    clients = await ctx.clientsUsed();
  } finally {
    await ctx.close();
  }
  console.log(table(rows));
  if (clients) console.log(`load client: ${clients}`);
  log(`npm run bench took ${((performance.now() - started) / 60_000).toFixed(1)} min`);
  if (options.write) {
    const command = `npm run bench${argv.length ? ' -- ' + argv.join(' ') : ''}`;
    const block = markdown(rows, {
      date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
      command,
      minutes: (performance.now() - started) / 60_000,
      loadStart,
      loadEnd: os.loadavg()[0]!,
      clients,
    });
    const file = fileURLToPath(new URL('../../docs/BENCHMARKS.md', import.meta.url));
    writeResults(file, block);
    log(`wrote ${file}`);
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
