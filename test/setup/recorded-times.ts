import { fileURLToPath } from 'node:url';

/**
 * Each test file's seconds in a full `npm test`, committed so a clean clone (CI) orders its files
 * as well as a machine whose vitest cache remembers them (test/setup/longest-first.ts). Written by
 * `npm run test:record-times` from the last run's cache; a file missing from it is guessed.
 */
export const RECORDED_TIMES = fileURLToPath(new URL('recorded-times.json', import.meta.url));

/** Repository-relative path (with /) → seconds, rounded to a tenth. */
export type RecordedTimes = Record<string, number>;
