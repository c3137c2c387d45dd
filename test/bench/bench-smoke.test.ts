import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A tiny run of `npm run bench` (S1 with a fraction of a second of load, S10 with 16 streams and no
 * idle window) so the suite cannot rot: one process, sharing its demo service between the two as a
 * full run does. Started by the first test that needs it; a run that exits with an error fails both.
 */
let benchRun: Promise<string> | undefined;
function benchOutput(): Promise<string> {
  benchRun ??= promisify(execFile)(
    process.execPath,
    [
      ...['--import', 'tsx', 'test/bench/run.ts', '--only', 'S1,S10', '--no-write'],
      ...['--duration', '0.3', '--connections', '2', '--streams', '16', '--stream-idle', '0'],
    ],
    { cwd: ROOT, timeout: 120_000 },
  ).then(({ stdout }) => stdout);
  return benchRun;
}

it('npm run bench -- --only S1,S10: S1 runs end to end and prints its row', async () => {
  const stdout = await benchOutput();
  const row = stdout.split('\n').find((line) => line.startsWith('S1 '));
  expect(row, stdout).toBeDefined();
  expect(row).toMatch(/\d[\d,]*\/s\s+\d[\d,]*\/s\s+\d+%/);
}, 150_000);

/** S10 with 16 streams and no idle window: the stream clients' process, the bounds and the slow reader still work. */
it('npm run bench -- --only S1,S10: S10 holds streams, refuses a 9th and drops a client that stops reading', async () => {
  const stdout = await benchOutput();
  const rows = stdout.split('\n').filter((line) => line.startsWith('S10 '));
  expect(
    rows.find((r) => r.includes('9th stream')),
    stdout,
  ).toMatch(/\bmet\b/);
  expect(
    rows.find((r) => r.includes('stops reading')),
    stdout,
  ).toMatch(/dropped after \d+ .*\bmet\b/);
  expect(
    rows.filter((r) => r.includes('not met')),
    stdout,
  ).toEqual([]);
}, 150_000);

/** C2 once, briefly: the fixture still renders the queue manager as the app composes it (it once hung on a missing provider). */
it('C2 mounts the queue manager with 500 entries in Chromium and scrolls it', async () => {
  const { runC2QueueRender } = await import('./scenarios/c2-queue-render.ts');
  const figures = await runC2QueueRender({ runs: 1, scrollMs: 300 });
  expect(figures.firstRenderMs.median).toBeGreaterThan(0);
  expect(figures.scroll.frames).toBeGreaterThan(0);
}, 150_000);
