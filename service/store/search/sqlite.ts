import { sql } from 'kysely';
import type { Db } from '../db.ts';
import type { FullTextSearch, SearchPage } from './types.ts';
import { searchWords } from './words.ts';

/** FTS5 query: every word as a quoted prefix, all required. */
function matchQuery(term: string): string | null {
  const words = searchWords(term);
  return words.length === 0 ? null : words.map((w) => `"${w}"*`).join(' ');
}

export function sqliteSearch(db: Db): FullTextSearch {
  const k = db.kysely;
  /** `rest` is the query after `FROM table s`, given the match string. */
  const page = async (
    table: 'title_search' | 'person_search',
    rest: (match: string) => ReturnType<typeof sql>,
    term: string,
    offset: number,
    limit: number,
  ): Promise<SearchPage> => {
    const match = matchQuery(term);
    if (!match) return { ids: [], total: 0 };
    const countRow = await sql<{
      n: number;
    }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${sql.table(table)} MATCH ${match}`.execute(k);
    const total = Number(countRow.rows[0]?.n ?? 0);
    if (total === 0 || offset >= total) return { ids: [], total };
    const rows = await sql<{
      id: number;
    }>`SELECT s.rowid AS id FROM ${sql.table(table)} s ${rest(match)} LIMIT ${limit} OFFSET ${offset}`.execute(k);
    return { ids: rows.rows.map((r) => Number(r.id)), total };
  };
  return {
    async indexTitles(trx, rows) {
      if (rows.length === 0) return;
      await sql`INSERT INTO title_search(rowid, title) VALUES ${sql.join(rows.map((r) => sql`(${r.id}, ${r.title})`))}`.execute(
        trx,
      );
    },
    async indexPeople(trx, rows) {
      if (rows.length === 0) return;
      await sql`INSERT INTO person_search(rowid, name) VALUES ${sql.join(rows.map((r) => sql`(${r.id}, ${r.name})`))}`.execute(
        trx,
      );
    },
    people(term, offset, limit) {
      return page(
        'person_search',
        (match) => sql`WHERE person_search MATCH ${match} ORDER BY bm25(person_search), s.rowid`,
        term,
        offset,
        limit,
      );
    },
    titleMatch(term) {
      const match = matchQuery(term);
      return match === null ? null : sql<number>`(SELECT rowid FROM title_search WHERE title_search MATCH ${match})`;
    },
  };
}
