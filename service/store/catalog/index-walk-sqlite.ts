import type { Db } from '../db.ts';
import type { ArrayRows, SqliteRows } from '../sqlite-rows.ts';
import type { IndexTitle, PersonRef } from '../../model/title.ts';
import type { TitleType } from '../../../shared/protocol/index.ts';

/** The index walk's reads: the query builder's statements for the same columns and order, as fixed texts. */
const SQL = {
  people: 'select id, name from people',
  titles:
    'select id, type, series_id, title, release_year, updated, mpaa_rating, tv_rating from titles where id > ? order by id limit ?',
  genres: 'select title_id, genre from title_genres where title_id >= ? and title_id <= ? order by title_id, genre',
  formats:
    'select title_id, format, available_from, available_until from availability where title_id >= ? and title_id <= ? order by title_id, format',
  credits:
    "select title_id, role, person_id from credits where title_id >= ? and title_id <= ? and role in ('cast', 'director') order by title_id, role, ordinal",
} as const;

type TitleRow = [number, TitleType, number | null, string, number | null, number, string | null, string | null];
type GenreRow = [number, string];
type FormatRow = [number, string, number, number | null];
type CreditRow = [number, 'cast' | 'director', number];

/** One batch's rows, each set in title id order. */
interface BatchRows {
  titles: TitleRow[];
  genres: GenreRow[];
  formats: FormatRow[];
  credits: CreditRow[];
}

type PeopleAmong = (db: Db, ids: readonly number[]) => Promise<Map<number, PersonRef>>;

/**
 * The index walk on SQLite (index-walk.ts): a batch's four reads in one hold of the connection,
 * rows as arrays, and titles matched with their genres, formats and credits by walking both lists
 * in id order. The titles are the objects the query builder's path makes (same keys, same order).
 */
export function sqliteIndexBatchReader(db: Db, store: SqliteRows, peopleAmong: PeopleAmong) {
  let people: Map<number, PersonRef> | undefined;
  return async (afterId: number, limit: number): Promise<IndexTitle[]> => {
    const [named, batch] = await store.read(
      (rows) => [people ?? allPeople(rows), readBatch(rows, afterId, limit)] as const,
    );
    people = named;
    if (batch.titles.length === 0) return [];
    const unnamed = batch.credits.filter((c) => !named.has(c[2])).map((c) => c[2]);
    if (unnamed.length > 0)
      for (const [id, person] of await peopleAmong(db, [...new Set(unnamed)])) named.set(id, person);
    return assemble(batch, named);
  };
}

function allPeople(rows: ArrayRows): Map<number, PersonRef> {
  const people = new Map<number, PersonRef>();
  for (const [id, name] of rows(SQL.people) as Array<[number, string]>) people.set(id, { id, name });
  return people;
}

function readBatch(rows: ArrayRows, afterId: number, limit: number): BatchRows {
  const titles = rows(SQL.titles, afterId, limit) as TitleRow[];
  if (titles.length === 0) return { titles, genres: [], formats: [], credits: [] };
  const [first, last] = [titles[0]![0], titles[titles.length - 1]![0]];
  return {
    titles,
    genres: rows(SQL.genres, first, last) as GenreRow[],
    formats: rows(SQL.formats, first, last) as FormatRow[],
    credits: rows(SQL.credits, first, last) as CreditRow[],
  };
}

function assemble(batch: BatchRows, people: Map<number, PersonRef>): IndexTitle[] {
  const titles = batch.titles.map(
    ([id, type, series_id, title, release_year, updated, mpaa_rating, tv_rating]): IndexTitle => ({
      id,
      type,
      series_id,
      title,
      release_year,
      updated,
      mpaa_rating,
      tv_rating,
      genres: [],
      formats: [],
      cast: [],
      directors: [],
    }),
  );
  // Each list is in title id order: a cursor per list finds its title. A row of a title added inside
  // the range since the titles were read (another process's load) matches none and is skipped.
  let at = 0;
  const titleOf = (id: number) => {
    if (at >= titles.length || titles[at]!.id > id) at = 0;
    while (at < titles.length && titles[at]!.id < id) at++;
    return titles[at]?.id === id ? titles[at] : undefined;
  };
  for (const [titleId, genre] of batch.genres) titleOf(titleId)?.genres.push(genre);
  at = 0;
  for (const [title_id, format, available_from, available_until] of batch.formats)
    titleOf(title_id)?.formats.push({ title_id, format, available_from, available_until });
  at = 0;
  for (const [titleId, role, personId] of batch.credits) {
    const person = people.get(personId);
    const title = titleOf(titleId);
    if (person === undefined || title === undefined) continue; // a credit of no person: skipped, as by the join it replaces
    (role === 'cast' ? title.cast : title.directors).push(person);
  }
  return titles;
}
