import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

const SHOWN = 10;

/**
 * Added after vitest's default reporter: once the run ends, the ten test files that took longest
 * (import plus tests and hooks) and their share of the run, so a file that grew slow is seen.
 */
export default class SlowestFiles implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length === 0) return;
    const root = this.vitest?.config.root ?? process.cwd();
    const rows = modules.map((m) => ({
      file: relative(root, m.moduleId),
      ms: fileMs(m),
      tests: [...m.children.allTests()].length,
    }));
    const all = rows.reduce((sum, r) => sum + r.ms, 0);
    const slowest = rows.sort((a, b) => b.ms - a.ms).slice(0, SHOWN);
    const width = Math.max(...slowest.map((r) => r.file.length));
    const lines = slowest.map(
      (r) => `  ${seconds(r.ms).padStart(7)}  ${r.file.padEnd(width)}  ${r.tests} ${r.tests === 1 ? 'test' : 'tests'}`,
    );
    const log = (text: string) => (this.vitest ? this.vitest.logger.log(text) : console.log(text));
    log(
      `\n Slowest ${slowest.length} of ${rows.length} test files (import, hooks and tests; ${seconds(all)} summed over all files, ${workersNote(this.vitest)}):`,
    );
    log(lines.join('\n'));
  }
}

/** What a file cost its worker: setting up, importing, then its tests and hooks. */
function fileMs(module: TestModule): number {
  const d = module.diagnostic();
  return d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function workersNote(vitest: Vitest | undefined): string {
  const workers = vitest?.config.maxWorkers;
  return workers ? `up to ${workers} at a time` : 'several at a time';
}
