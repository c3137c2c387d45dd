import { titleWords } from '../../service/store/search/words.ts';
import type { Db } from '../../service/store/db.ts';

/** Terms drawn from a catalog: `measured` and a disjoint `warmup` set, each term once, in random order. */
export interface DrawnTerms {
  measured: string[];
  warmup: string[];
  /** Distinct terms there were to draw from. */
  pool: number;
}

/** Every distinct word of the catalog's movie and series titles (what title search finds), read a batch at a time. */
export async function catalogWords(db: Db): Promise<Set<string>> {
  const words = new Set<string>();
  let after = -1;
  for (;;) {
    const rows = await db.kysely
      .selectFrom('titles')
      .select(['id', 'title'])
      .where('type', 'in', ['movie', 'series'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(10_000)
      .execute();
    if (rows.length === 0) return words;
    for (const r of rows) for (const w of titleWords(r.title)) words.add(w);
    after = rows[rows.length - 1]!.id;
  }
}

/** The distinct 2-, 3- and 4-letter beginnings of the words (a word as short as the prefix is its own). */
export function prefixesOf(words: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const w of words) for (let n = 2; n <= 4 && n <= w.length; n++) out.add(w.slice(0, n));
  return out;
}

/** Up to `measured` + `warmup` distinct terms of the pool, at random (Fisher–Yates on a copy). */
export function draw(pool: Set<string>, measured: number, warmup: number): DrawnTerms {
  const all = [...pool];
  const take = Math.min(all.length, measured + warmup);
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(Math.random() * (all.length - i));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  const warm = Math.min(warmup, Math.floor(take / 10));
  return { warmup: all.slice(0, warm), measured: all.slice(warm, take), pool: all.length };
}
