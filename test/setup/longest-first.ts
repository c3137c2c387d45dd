import { existsSync, readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { RECORDED_TIMES, type RecordedTimes } from './recorded-times.ts';

/** Seconds a file is expected to take when neither vitest nor the recorded table has a time for it (a new file). */
const GUESS_S = { e2e: 60, process: 20, other: 2 } as const;
/** Files that start real processes (an app, a service, a browser, a CLI) take longest after e2e. */
export const STARTS_PROCESSES = /\b(startApp|startQueueSession|startService|launchBrowser|spawn|execFile|spawnSync)\b/;

/** A file's environment comment (`@vitest-environment happy-dom`), matched as vitest matches it: anywhere in the file. */
const ENVIRONMENT_COMMENT = /@(?:vitest|jest)-environment\s+([\w-]+)\b/;

/**
 * Runs the files expected to take longest first, so a run never ends waiting on one long file
 * while the other workers idle. A file's expected time is the one vitest recorded in its cache
 * (a machine that ran the suite before), else the committed table's (a clean clone: CI), else a
 * guess from what the file does. On a clean clone, guesses alone started a 38 s file among the
 * last: the run ended ≈ 20 s after the other workers ran dry.
 *
 * Files in an environment of their own (the renderer's happy-dom files) come after all the others,
 * longest first among themselves. Vitest keeps a worker for the next file only when that file's
 * environment is the same (isolate: false); ordered by time alone, each happy-dom file fell between
 * node files and cost a new worker for itself and another for the node file after it: 18 workers
 * started late in a run, each ≈ 1.5–2.5 s of CPU importing vitest, the app and its libraries again.
 */
export class LongestFirst extends BaseSequencer {
  private readonly recorded = readRecorded();

  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const expected = new Map(files.map((spec) => [spec, this.expectedMs(spec)]));
    const projectEnvironment = this.ctx.config.environment ?? 'node';
    const ownEnvironment = new Map(
      files.map((spec) => [spec, (environmentOf(spec) ?? projectEnvironment) === projectEnvironment ? 0 : 1]),
    );
    return Promise.resolve(
      [...files].sort((a, b) => ownEnvironment.get(a)! - ownEnvironment.get(b)! || expected.get(b)! - expected.get(a)!),
    );
  }

  private expectedMs(spec: TestSpecification): number {
    const path = relative(this.ctx.config.root, spec.moduleId);
    const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
    if (cached) return cached.duration;
    const recorded = this.recorded[path.split(sep).join('/')];
    if (recorded !== undefined) return recorded * 1000;
    if (path.split(sep).includes('e2e')) return GUESS_S.e2e * 1000;
    const source = readFileSync(spec.moduleId, 'utf8');
    return (STARTS_PROCESSES.test(source) ? GUESS_S.process : GUESS_S.other) * 1000 + source.length / 100;
  }
}

/** The environment a file names for itself, if any. */
function environmentOf(spec: TestSpecification): string | undefined {
  return ENVIRONMENT_COMMENT.exec(readFileSync(spec.moduleId, 'utf8'))?.[1];
}

function readRecorded(): RecordedTimes {
  return existsSync(RECORDED_TIMES) ? (JSON.parse(readFileSync(RECORDED_TIMES, 'utf8')) as RecordedTimes) : {};
}
