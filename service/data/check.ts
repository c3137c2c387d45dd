/** Consistency checks over a whole generated catalog (what the loader cannot check without FKs). */
import { GENRES, MPAA_RATINGS, TITLE_FORMATS, TV_RATINGS } from '../../shared/protocol/index.ts';
import type { TitlesTable } from '../store/schema.ts';
import type { CatalogBatch } from './catalog-batch.ts';

/** What a title's parent must be, by type. */
const PARENT_TYPES: Record<TitlesTable['type'], readonly string[]> = {
  movie: [],
  series: [],
  season: ['series'],
  program: ['season'],
  disc: ['movie', 'season'],
};

/**
 * Every problem found, as readable lines (empty when the catalog is sound). Holds the ids and a
 * few fields per title in memory, so it is meant for tests, not for a million titles.
 */
export function checkCatalog(batches: Iterable<CatalogBatch>): string[] {
  const problems: string[] = [];
  const fail = (msg: string) => {
    if (problems.length < 50) problems.push(msg);
  };
  const titles = new Map<number, Pick<TitlesTable, 'type' | 'parent_id' | 'series_id'>>();
  const people = new Set<number>();
  const details = new Map<number, number>();
  const refs: { from: string; title?: number; person?: number }[] = [];
  const pairs = new Set<string>();
  const once = (key: string, what: string) => {
    if (pairs.has(key)) fail(`duplicate ${what} ${key}`);
    pairs.add(key);
  };

  for (const b of batches) {
    for (const t of b.titles) {
      if (titles.has(t.id)) fail(`title ${t.id} appears twice`);
      titles.set(t.id, { type: t.type, parent_id: t.parent_id, series_id: t.series_id });
      if (typeof t.title !== 'string' || t.title.trim() === '') fail(`title ${t.id} has no title`);
      if (
        t.average_rating !== null &&
        (t.average_rating < 1 || t.average_rating > 5 || Math.round(t.average_rating * 10) !== t.average_rating * 10)
      )
        fail(`title ${t.id} rating ${t.average_rating}`);
      if (t.mpaa_rating !== null && !(MPAA_RATINGS as readonly string[]).includes(t.mpaa_rating))
        fail(`title ${t.id} mpaa ${t.mpaa_rating}`);
      if (t.tv_rating !== null && !(TV_RATINGS as readonly string[]).includes(t.tv_rating))
        fail(`title ${t.id} tv rating ${t.tv_rating}`);
      if (t.parent_id !== null) refs.push({ from: `parent of ${t.id}`, title: t.parent_id });
      if (t.series_id !== null) refs.push({ from: `series of ${t.id}`, title: t.series_id });
    }
    for (const p of b.people) {
      if (people.has(p.id)) fail(`person ${p.id} appears twice`);
      people.add(p.id);
      if (!p.name || !p.bio) fail(`person ${p.id} lacks a name or bio`);
    }
    for (const g of b.genres) {
      if (!(GENRES as readonly string[]).includes(g.genre)) fail(`title ${g.title_id} genre ${g.genre}`);
      once(`${g.title_id}/${g.genre}`, 'genre');
      refs.push({ from: 'genre', title: g.title_id });
    }
    for (const a of b.availability) {
      if (!(TITLE_FORMATS as readonly string[]).includes(a.format)) fail(`title ${a.title_id} format ${a.format}`);
      if (a.available_until !== null && a.available_until <= a.available_from)
        fail(`title ${a.title_id} window ends before it starts`);
      once(`${a.title_id}/${a.format}`, 'availability');
      refs.push({ from: 'availability', title: a.title_id });
    }
    for (const c of b.credits) {
      once(`${c.title_id}/${c.role}/${c.person_id}`, 'credit');
      refs.push({ from: 'credit', title: c.title_id, person: c.person_id });
    }
    for (const s of b.similars) {
      if (s.title_id === s.similar_id) fail(`title ${s.title_id} is its own similar`);
      once(`${s.title_id}~${s.similar_id}`, 'similar');
      refs.push({ from: 'similar', title: s.title_id }, { from: `similar of ${s.title_id}`, title: s.similar_id });
    }
    for (const d of b.details) {
      details.set(d.title_id, (details.get(d.title_id) ?? 0) + 1);
      for (const col of ['screen_formats', 'languages_and_audio', 'awards', 'bonus_materials'] as const) {
        const v: unknown = JSON.parse(d[col]);
        if (!Array.isArray(v)) fail(`details ${d.title_id} ${col} is not a JSON array`);
      }
      for (const id of JSON.parse(d.bonus_materials) as number[]) {
        if (id === d.title_id) fail(`title ${id} is its own bonus material`);
        refs.push({ from: `bonus of ${d.title_id}`, title: id });
      }
    }
  }

  for (const r of refs) {
    if (r.title !== undefined && !titles.has(r.title)) fail(`${r.from}: no title ${r.title}`);
    if (r.person !== undefined && !people.has(r.person)) fail(`${r.from}: no person ${r.person}`);
  }
  for (const [id, t] of titles) {
    if ((details.get(id) ?? 0) !== 1) fail(`title ${id} has ${details.get(id) ?? 0} details rows`);
    const parent = t.parent_id === null ? undefined : titles.get(t.parent_id);
    const allowed = PARENT_TYPES[t.type];
    if (allowed.length === 0 ? t.parent_id !== null : !parent || !allowed.includes(parent.type))
      fail(`${t.type} ${id} has parent ${t.parent_id}`);
    if ((t.type === 'season' || t.type === 'program') && titles.get(t.series_id ?? -1)?.type !== 'series')
      fail(`${t.type} ${id} has series ${t.series_id}`);
  }
  return problems;
}
