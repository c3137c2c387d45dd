/** People rows for the demo: real directors with fact-only bios, invented people who were credited. */
import type { CreditsTable, PeopleTable, TitlesTable } from '../../store/schema.ts';
import type { InventedPool } from '../invent/cast.ts';
import { rngFor } from '../rng.ts';
import { inventedBio, realDirectorBio, type PersonRef } from '../invent/text.ts';

/** Real directors, one id each, in name order (ids are stable while the seed is). */
export function realDirectors(names: Iterable<string>, firstId: number): Map<string, PersonRef> {
  const sorted = [...new Set(names)].sort();
  return new Map(sorted.map((name, i) => [name, { id: firstId + i, name }]));
}

/**
 * Every credited person once. Real directors' bios list only their films here (best rated first);
 * invented people get a generated bio naming one of their titles.
 */
export function demoPeople(
  seed: number,
  directors: ReadonlyMap<string, PersonRef>,
  pool: InventedPool,
  titles: readonly TitlesTable[],
  credits: readonly CreditsTable[],
): PeopleTable[] {
  const titleById = new Map(titles.map((t) => [t.id, t]));
  const byPerson = new Map<number, TitlesTable[]>();
  for (const c of credits) {
    const t = titleById.get(c.title_id);
    if (!t) continue;
    const list = byPerson.get(c.person_id);
    if (list) list.push(t);
    else byPerson.set(c.person_id, [t]);
  }
  const best = (ts: TitlesTable[]) =>
    [...ts].sort(
      (a, b) =>
        (b.average_rating ?? 0) - (a.average_rating ?? 0) ||
        (a.release_year ?? 0) - (b.release_year ?? 0) ||
        a.id - b.id,
    );

  const people: PeopleTable[] = [];
  for (const p of directors.values()) {
    const films = best(byPerson.get(p.id) ?? []).map((t) => ({ title: t.title, year: t.release_year }));
    people.push({ id: p.id, name: p.name, bio: realDirectorBio(films) });
  }
  for (let i = 0; i < pool.size; i++) {
    const p = pool.person(i);
    const ts = byPerson.get(p.id);
    if (!ts) continue; // never credited: not part of the catalog
    // Seasons and episodes count as their series, so the bio names shows, not episodes.
    const tops = [...new Set(ts.map((t) => (t.series_id !== null ? (titleById.get(t.series_id) ?? t) : t)))];
    const example = best(tops)[0];
    const distinct = tops.length;
    people.push({
      id: p.id,
      name: p.name,
      bio: inventedBio(
        rngFor(seed, p.id, 'bio'),
        p.name,
        { count: distinct, example: example && { title: example.title, year: example.release_year } },
        pool.isDirector(i) ? 'director' : 'performer',
      ),
    });
  }
  return people;
}
