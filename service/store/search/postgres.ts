import { sql } from 'kysely';
import type { Db } from '../db.ts';
import type { FullTextSearch, SearchPage } from './types.ts';
import { searchWords } from './words.ts';

/** tsquery: every word as a prefix, all required ('simple' config: no stemming, no stop words). */
function tsQuery(term: string): string | null {
  const words = searchWords(term);
  return words.length === 0 ? null : words.map((w) => `${w}:*`).join(' & ');
}

export function postgresSearch(db: Db): FullTextSearch {
  const k = db.kysely;
  return {
    async indexTitles(trx, rows) {
      if (rows.length === 0) return;
      const values = sql.join(rows.map((r) => sql`(${r.id}, to_tsvector('simple', ${r.title}), ${r.popularity})`));
      await sql`INSERT INTO title_search (id, document, popularity) VALUES ${values}`.execute(trx);
    },
    async indexPeople(trx, rows) {
      if (rows.length === 0) return;
      const values = sql.join(rows.map((r) => sql`(${r.id}, to_tsvector('simple', ${r.name}))`));
      await sql`INSERT INTO person_search (id, document) VALUES ${values}`.execute(trx);
    },
    async people(term, offset, limit) {
      const q = tsQuery(term);
      if (!q) return { ids: [], total: 0 };
      const rows = await sql<{ id: number; total: number }>`
        SELECT id, count(*) OVER () AS total FROM person_search, to_tsquery('simple', ${q}) query
        WHERE document @@ query ORDER BY ts_rank(document, query) DESC, id
        LIMIT ${limit} OFFSET ${offset}`.execute(k);
      return withTotal(rows.rows, () => count('person_search', q));
    },
    titleMatch(term) {
      const q = tsQuery(term);
      return q === null
        ? null
        : sql<number>`(SELECT id FROM title_search WHERE document @@ to_tsquery('simple', ${q}))`;
    },
  };

  async function count(table: string, q: string): Promise<number> {
    const r = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE document @@ to_tsquery('simple', ${q})`.execute(k);
    return Number(r.rows[0]?.n ?? 0);
  }
}

/** The window count rides on each row; past the last page there are no rows, so count separately. */
async function withTotal(
  rows: Array<{ id: number; total: number }>,
  countAll: () => Promise<number>,
): Promise<SearchPage> {
  const ids = rows.map((r) => Number(r.id));
  const total = rows.length > 0 ? Number(rows[0]!.total) : await countAll();
  return { ids, total };
}
