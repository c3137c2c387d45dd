import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticCatalog } from '../../service/data/synthetic/catalog.ts';
import { loadCatalog } from '../../service/store/catalog/load.ts';
import type { Db } from '../../service/store/db.ts';
import { autocompleteTitles, searchTitles } from '../../service/store/search/word-query.ts';
import { WordTableBuilder } from '../../service/store/search/word-table-build.ts';
import type { WordTable } from '../../service/store/search/word-table.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';

interface Row {
  id: number;
  title: string;
  average_rating: number | null;
}

/** Words as the full-text index has them: lower case, accents dropped, split at what is not a letter or digit. */
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** The titles a term finds, worked out the slow way: every word of the term begins a word of the title. */
function matching(rows: Row[], term: string): Row[] {
  const termWords = wordsOf(term);
  return rows.filter((r) => {
    const words = wordsOf(r.title);
    return termWords.every((t) => words.some((w) => w.startsWith(t)));
  });
}
const byRating = (a: Row, b: Row) => (b.average_rating ?? -1) - (a.average_rating ?? -1) || a.id - b.id;

/**
 * Search order worked out the slow way: FTS5's bm25 (k1 1.2, b 0.75; IDF log((N − n + 0.5) /
 * (n + 0.5)), at least 1e-6; a word's frequency is how many title words it begins), best first,
 * then best rated, then id — what `ORDER BY bm25(title_search), average_rating DESC, id` gave.
 */
function searchOrder(all: Row[], term: string): number[] {
  const termWords = wordsOf(term).slice(0, 8);
  const lengths = new Map(all.map((r) => [r.id, wordsOf(r.title).length]));
  const avgdl = [...lengths.values()].reduce((a, b) => a + b, 0) / all.length;
  const idfs = termWords.map((w) => {
    const hits = all.filter((r) => wordsOf(r.title).some((t) => t.startsWith(w))).length;
    const idf = Math.log((all.length - hits + 0.5) / (hits + 0.5));
    return idf <= 0 ? 1e-6 : idf;
  });
  const score = (r: Row) => {
    const D = lengths.get(r.id)!;
    let sum = 0.0;
    termWords.forEach((w, k) => {
      const f = wordsOf(r.title).filter((t) => t.startsWith(w)).length;
      sum += idfs[k]! * ((f * (1.2 + 1.0)) / (f + 1.2 * (1 - 0.75 + (0.75 * D) / avgdl)));
    });
    return sum;
  };
  const scored = matching(all, term).map((r) => ({ r, s: score(r) }));
  return scored.sort((a, b) => b.s - a.s || byRating(a.r, b.r)).map((x) => x.r.id);
}
const autocompleteOrder = (rows: Row[]) => [...rows].sort(byRating).map((r) => r.id);

async function searchableRows(db: Db): Promise<Row[]> {
  return db.kysely
    .selectFrom('titles')
    .select(['id', 'title', 'average_rating'])
    .where('type', 'in', ['movie', 'series'])
    .orderBy('id')
    .execute();
}

async function tableOf(rows: Row[], heavyPostings?: number): Promise<WordTable> {
  const builder = new WordTableBuilder(heavyPostings);
  for (const r of rows) builder.add(r.id, r.title, r.average_rating);
  return builder.finish();
}

/** Terms of every kind: single letters, prefixes, whole words, several words, words that are not there. */
const TERMS = [
  'a',
  't',
  's',
  'th',
  'st',
  'the',
  'love',
  'star',
  'dark knight',
  'the matrix',
  'the m',
  'man the',
  'of the',
  'a s',
  'the the',
  'zzqxj',
  'star zzqxj',
  '8½',
  'amélie',
  'AMELIE',
];

describe.each(DATABASES)('title search and autocomplete on %s', (kind) => {
  let svc: TestService;
  let rows: Row[];
  beforeAll(async () => {
    svc = await startTestService(kind);
    rows = await searchableRows(svc.db);
  });
  afterAll(() => svc.close());

  const titleIds = (body: string) =>
    ((parseXml(body).catalog_titles.catalog_title ?? []) as Array<{ id: string }>).map((t) =>
      Number(t.id.split('/').pop()),
    );
  const search = async (term: string, query: Record<string, string> = {}) => {
    const res = await call(svc, '/catalog/titles', { query: { term, ...query } });
    expect(res.statusCode, term).toBe(200);
    return { ids: titleIds(res.body), total: Number(parseXml(res.body).catalog_titles.number_of_results) };
  };
  const autocomplete = async (term: string) => {
    const res = await call(svc, '/catalog/titles/autocomplete', { auth: 'key', query: { term } });
    expect(res.statusCode, term).toBe(200);
    return ((parseXml(res.body).autocomplete.autocomplete_item ?? []) as Array<{ title: { short: string } }>).map(
      (i) => i.title.short,
    );
  };

  it('a search finds every title whose words begin with the term’s words, in bm25 order, then best rated', async () => {
    let paged = 0;
    for (const term of TERMS) {
      const expected = searchOrder(rows, term);
      const first = await search(term);
      expect(first.total, term).toBe(expected.length);
      expect(first.ids, term).toEqual(expected.slice(0, 25));
      if (expected.length <= 40) continue; // a start past the end is a 400 (catalog.test.ts)
      const later = await search(term, { start_index: '40', max_results: '30' });
      expect(later.ids, term).toEqual(expected.slice(40, 70));
      paged++;
    }
    expect(paged).toBeGreaterThan(5);
  });

  it('autocomplete offers the best rated titles matching the term, then by id', async () => {
    const titleOf = new Map(rows.map((r) => [r.id, r.title]));
    for (const term of TERMS) {
      const expected = autocompleteOrder(matching(rows, term))
        .slice(0, 10)
        .map((id) => titleOf.get(id));
      expect(await autocomplete(term), term).toEqual(expected);
    }
  });

  it('titles loaded while the service runs are found at once, and the rest still are', async () => {
    const before = await search('love');
    await loadCatalog(svc.db, syntheticCatalog(30, Math.floor(Date.now() / 1000)));
    const added = (await searchableRows(svc.db)).filter((r) => !rows.some((o) => o.id === r.id));
    expect(added.length).toBeGreaterThan(0);
    const newest = added[added.length - 1]!;
    expect((await search(newest.title, { max_results: '100' })).ids).toContain(newest.id);
    expect(await autocomplete(newest.title)).toContain(newest.title);
    expect((await search('love')).total).toBe(before.total + matching(added, 'love').length);
  });
});

describe('the word table against the full-text index (SQLite FTS5)', () => {
  let svc: TestService;
  let rows: Row[];
  let table: WordTable;
  beforeAll(async () => {
    svc = await startTestService('sqlite');
    rows = await searchableRows(svc.db);
    table = await tableOf(rows);
  });
  afterAll(() => svc.close());

  it('finds the same titles as FTS5 for every one-to-three-letter prefix of every title word', async () => {
    const prefixes = new Set(table.words.flatMap((w) => [w.slice(0, 1), w.slice(0, 2), w.slice(0, 3)]));
    expect(prefixes.size).toBeGreaterThan(1000);
    for (const prefix of prefixes) {
      const fts = await sql<{
        id: number;
      }>`SELECT rowid AS id FROM title_search WHERE title_search MATCH ${`"${prefix}"*`}`.execute(svc.db.kysely);
      const found = searchTitles(table, [prefix], 0, 1e9);
      expect(found.total, prefix).toBe(fts.rows.length);
      expect(new Set(found.ids), prefix).toEqual(new Set(fts.rows.map((r) => Number(r.id))));
    }
  });

  it('orders a search as FTS5 did: bm25, then best rated, then id, for prefixes, words and several words', async () => {
    const sample = [
      ...new Set(table.words.filter((_, k) => k % 7 === 0).flatMap((w) => [w.slice(0, 2), w.slice(0, 3), w])),
    ];
    const pairs = table.words
      .filter((_, k) => k % 97 === 0)
      .map((w, k, all) => `${w} ${all[(k + 1) % all.length]!.slice(0, 2)}`);
    const terms = [...TERMS, ...sample, ...pairs, 'the lord of the rings', 'love love', 'a a a'];
    expect(terms.length).toBeGreaterThan(500);
    for (const term of terms) {
      const words = wordsOf(term).slice(0, 8);
      if (words.length === 0) continue;
      const match = words.map((w) => `"${w}"*`).join(' ');
      const fts = await sql<{ id: number }>`SELECT s.rowid AS id FROM title_search s JOIN titles t ON t.id = s.rowid
        WHERE title_search MATCH ${match} ORDER BY bm25(title_search), t.average_rating DESC, t.id`.execute(
        svc.db.kysely,
      );
      expect(searchTitles(table, words, 0, 1e9).ids, term).toEqual(fts.rows.map((r) => Number(r.id)));
    }
  });

  it('answers the same with first pages kept for every prefix of over 20 postings as with the default', async () => {
    const kept = await tableOf(rows, 20);
    expect(kept.heavy.size).toBeGreaterThan(table.heavy.size);
    const terms = [...TERMS, 'b', 'bl', 'the s', 'a the', 'l a', 's s', 'o t'];
    for (const term of terms) {
      const words = wordsOf(term).slice(0, 8);
      for (const [offset, limit] of [
        [0, 25],
        [0, 100],
        [90, 25],
        [300, 100],
      ] as const) {
        expect(searchTitles(kept, words, offset, limit), `${term} ${offset}`).toEqual(
          searchTitles(table, words, offset, limit),
        );
        expect(searchTitles(table, words, offset, limit).ids, `${term} ${offset}`).toEqual(
          searchOrder(rows, term).slice(offset, offset + limit),
        );
      }
      for (const limit of [1, 10, 100]) {
        expect(
          autocompleteTitles(kept, words, limit).map((t) => t.id),
          term,
        ).toEqual(autocompleteOrder(matching(rows, term)).slice(0, limit));
      }
    }
  });
});
