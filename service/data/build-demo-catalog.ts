/**
 * Builds service/data/demo-catalog.json.gz and NOTICE from the two pinned film lists
 * (`npm run build:demo-catalog`). Deterministic: re-running gives the same bytes.
 */
import { writeFileSync } from 'node:fs';
import { NOTICE_TEXT } from './sources/notice.ts';
import { buildFilms, readSources } from './sources/build.ts';
import { encodeSeed, SEED_URL } from './seed-format.ts';

function main(): void {
  const { vega, md } = readSources();
  const { films, stats } = buildFilms(vega, md);
  const gz = encodeSeed(films);
  writeFileSync(SEED_URL, gz);
  writeFileSync(new URL('./NOTICE', import.meta.url), NOTICE_TEXT);
  console.log(`demo seed: ${films.length} films, ${stats.directors} directors, ${gz.length} bytes`, stats);
}

main();
