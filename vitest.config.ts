import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/setup/longest-first.ts';

/**
 * One run on a 2-core machine: three forked workers (many files wait on a browser, a child
 * process or a socket, so a third keeps the cores busy), each reusing its module cache from file
 * to file (isolate: false: importing the service, Fastify and Kysely again for every file cost more
 * than half the run). Test files keep no state in shared modules; each opens its own databases.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/global.ts'],
    testTimeout: 60_000, // a loaded 2-core machine stretches the slowest tests past 30 s (seen: 34 s and 42 s at load 21)
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 3,
    isolate: false,
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './test/setup/slowest-files.ts'],
  },
});
