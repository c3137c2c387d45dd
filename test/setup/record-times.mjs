// `npm run test:record-times`: writes test/setup/recorded-times.json from the times vitest kept of
// the last full run (its cache, node_modules/.vite/vitest/*/results.json), so a clean clone orders
// its files longest first too (test/setup/longest-first.ts). Run it after a full `npm test` when
// files were added or grew slower, and commit the table.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.vite', 'vitest');
const TABLE = join(ROOT, 'test', 'setup', 'recorded-times.json');

/** The newest results.json in vitest's cache, or null when it has none. */
function newestResults() {
  if (!existsSync(CACHE)) return null;
  const found = readdirSync(CACHE)
    .map((dir) => join(CACHE, dir, 'results.json'))
    .filter((file) => existsSync(file))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return found[0] ?? null;
}

const source = newestResults();
if (!source) {
  console.error('No vitest results to record: run `npm test` first.');
  process.exit(1);
}
const { results } = JSON.parse(readFileSync(source, 'utf8'));
const table = Object.fromEntries(
  results
    .map(([key, { duration }]) => [key.slice(key.indexOf(':') + 1), Math.round(duration / 100) / 10])
    .filter(([path]) => existsSync(join(ROOT, path)))
    .sort(([a], [b]) => a.localeCompare(b)),
);
writeFileSync(TABLE, `${JSON.stringify(table, null, 2)}\n`);
console.log(`Recorded ${Object.keys(table).length} files' times in ${TABLE}`);
