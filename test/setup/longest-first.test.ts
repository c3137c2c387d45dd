import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { LongestFirst, STARTS_PROCESSES } from './longest-first.ts';
import { RECORDED_TIMES, type RecordedTimes } from './recorded-times.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const recorded = JSON.parse(readFileSync(RECORDED_TIMES, 'utf8')) as RecordedTimes;

/** A sequencer over a vitest whose cache knows the times given (a clean clone: none). */
function sequencer(cachedMs: Record<string, number> = {}): LongestFirst {
  const ctx = {
    config: { root: ROOT },
    cache: {
      getFileTestResults: (key: string) => {
        const ms = cachedMs[key.slice(key.indexOf(':') + 1)];
        return ms === undefined ? undefined : { duration: ms, failed: false };
      },
    },
  } as unknown as Vitest;
  return new LongestFirst(ctx);
}

const spec = (path: string) => ({ moduleId: join(ROOT, path), project: { name: '' } }) as unknown as TestSpecification;
const order = async (s: LongestFirst, paths: string[]) =>
  (await s.sort(paths.map(spec))).map((f) => f.moduleId.slice(ROOT.length + 1));

/**
 * Two recorded files a guess alone orders the wrong way round: the longest that starts no process
 * (guessed 2 s) and the shortest that does (guessed 20 s).
 */
const startsProcesses = (path: string) => STARTS_PROCESSES.test(readFileSync(join(ROOT, path), 'utf8'));
const byTime = Object.entries(recorded)
  .filter(([path]) => !path.includes('/e2e/') && existsSync(join(ROOT, path)))
  .sort(([, a], [, b]) => b - a)
  .map(([path]) => path);
const long = byTime.find((path) => !startsProcesses(path));
const short = byTime.findLast((path) => startsProcesses(path));

it('on a clean clone, the committed table puts the files that took longest first', async () => {
  expect(recorded[long!]!).toBeGreaterThan(recorded[short!]!);
  expect(await order(sequencer(), [short!, long!])).toEqual([long, short]);
});

it("vitest's own times, where it has them, come before the table's", async () => {
  expect(await order(sequencer({ [short!]: (recorded[long!]! + 10) * 1000 }), [long!, short!])).toEqual([short, long]);
});

it('a file in neither is guessed: an end-to-end file before a plain one', async () => {
  const [plain, e2e] = ['test/setup/global.ts', 'test/e2e/helpers/app.ts'];
  expect(recorded[plain] ?? recorded[e2e]).toBeUndefined();
  expect(await order(sequencer(), [plain, e2e])).toEqual([e2e, plain]);
});

it('a file in an environment of its own (happy-dom) comes after every other file, however long it took', async () => {
  const [dom, node] = ['test/renderer/router.test.ts', 'test/setup/longest-first.test.ts'];
  // The marker spelt in two parts: written whole, vitest would run this file in happy-dom too.
  expect(readFileSync(join(ROOT, dom), 'utf8')).toContain(['@vitest', 'environment happy-dom'].join('-'));
  expect(await order(sequencer({ [dom]: 60_000, [node]: 1 }), [dom, node])).toEqual([node, dom]);
});
