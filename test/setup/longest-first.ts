import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds a file is expected to take when vitest has no time for it yet (a clean clone). */
const GUESS_S = { e2e: 60, process: 20, other: 2 } as const;
/** Files that start real processes (an app, a service, a browser, a CLI) take longest after e2e. */
const STARTS_PROCESSES = /\b(startApp|startQueueSession|startService|launchBrowser|spawn|execFile|spawnSync)\(/;

/**
 * Runs the files expected to take longest first, so a run never ends waiting on one long file
 * while the other workers idle: the time vitest recorded for a file where it has one (its cache),
 * else a guess from what the file does.
 */
export class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const expected = new Map(files.map((spec) => [spec, this.expectedMs(spec)]));
    return Promise.resolve([...files].sort((a, b) => expected.get(b)! - expected.get(a)!));
  }

  private expectedMs(spec: TestSpecification): number {
    const path = relative(this.ctx.config.root, spec.moduleId);
    const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
    if (cached) return cached.duration;
    if (path.split(sep).includes('e2e')) return GUESS_S.e2e * 1000;
    const source = readFileSync(spec.moduleId, 'utf8');
    return (STARTS_PROCESSES.test(source) ? GUESS_S.process : GUESS_S.other) * 1000 + source.length / 100;
  }
}
