import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/setup/longest-first.ts';

/**
 * One run on a 2-core machine: four forked workers (many files wait on a browser, a child
 * process, a socket or an app's poll interval; with three, `npm test` kept the cores 172% busy
 * once the static checks beside it had finished), each reusing its module cache from file
 * to file (isolate: false: a fresh process importing the service, Fastify and Kysely for every
 * file was a fifth of the suite's CPU). Test files keep no state in shared modules; each opens its
 * own databases. The longest files start first; the ten slowest are listed after the summary.
 */
export default defineConfig({
  test: {
    // MARQUEE_TEST_FIXTURE: one fixture file instead (test/setup/exit-code.test.ts runs a failing one).
    include: process.env.MARQUEE_TEST_FIXTURE ? [process.env.MARQUEE_TEST_FIXTURE] : ['test/**/*.test.ts'],
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/e2e-evidence.ts'],
    // A safeguard, not a measure: with four files at a time on two busy cores a test may take twice as long as alone.
    testTimeout: 60_000,
    // expect.poll's own default gives up after one second: on two busy cores an app may take longer
    // to show what a test waits for (a service switched in Settings, a review after a drop).
    expect: { poll: { timeout: 30_000 } },
    hookTimeout: 120_000,
    pool: 'forks',
    // A larger young generation: fewer scavenges in files that parse whole catalogs (≈ 5% of
    // service/index.test.ts's CPU). Only the workers: the processes tests start keep Node's defaults.
    execArgv: ['--max-semi-space-size=64'],
    maxWorkers: 4,
    isolate: false,
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './test/setup/slowest-files.ts'],
  },
});
