import { describe, expect, it } from 'vitest';
import type { CatalogBatch } from '../../service/data/catalog-batch.ts';
import { checkCatalog } from '../../service/data/check.ts';
import { DEMO_IDS, demoCatalog } from '../../service/data/demo/catalog.ts';
import type { TitlesTable } from '../../service/store/schema.ts';

const NOW = 1_750_000_000;
const DAY = 86_400;
const batches = [...demoCatalog(NOW)];
const all = <K extends keyof CatalogBatch>(k: K): CatalogBatch[K] =>
  batches.flatMap((b) => b[k] as unknown[]) as CatalogBatch[K];
const titles = all('titles');
const byId = new Map(titles.map((t) => [t.id, t]));
const ofType = (type: TitlesTable['type']) => titles.filter((t) => t.type === type);
const availability = all('availability');
const windowsById = new Map<number, typeof availability>();
for (const a of availability) (windowsById.get(a.title_id) ?? windowsById.set(a.title_id, []).get(a.title_id)!).push(a);
const windows = (id: number) => windowsById.get(id) ?? [];

describe('demo catalog', () => {
  it('is the same for the same now', () => {
    expect(JSON.stringify([...demoCatalog(NOW)])).toBe(JSON.stringify(batches));
  });

  it('moves only its time fields when now moves', () => {
    const later = [...demoCatalog(NOW + 1000)];
    const strip = (b: CatalogBatch[]) => b.flatMap((x) => x.titles).map(({ updated: _u, ...t }) => t);
    expect(strip(later)).toEqual(strip(batches));
    const shifts = new Set(
      later.flatMap((b) => b.availability).map((a, i) => a.available_from - (availability[i]?.available_from ?? 0)),
    );
    expect([...shifts]).toEqual([1000]);
  });

  it('passes every consistency check (unique ids, references, one details row per title)', () => {
    expect(checkCatalog(batches)).toEqual([]);
  });

  it('comes in batches of at most 500 titles', () => {
    for (const b of batches) expect(b.titles.length).toBeLessThanOrEqual(500);
    expect(batches.length).toBeGreaterThan(5);
  });

  it('has movies, 40 series, and their seasons, episodes and discs in the expected ranges', () => {
    const movies = ofType('movie');
    expect(movies.length).toBeGreaterThanOrEqual(3_500);
    expect(movies.length).toBeLessThanOrEqual(4_500);
    expect(movies.map((m) => m.id)).toEqual(movies.map((_, i) => DEMO_IDS.movies + i));
    expect(ofType('series')).toHaveLength(40);
    for (const season of ofType('season')) {
      const members = titles.filter((t) => t.parent_id === season.id);
      const episodes = members.filter((t) => t.type === 'program');
      const discs = members.filter((t) => t.type === 'disc');
      expect(episodes.length).toBeGreaterThanOrEqual(6);
      expect(episodes.length).toBeLessThanOrEqual(13);
      expect(discs.length).toBeGreaterThanOrEqual(2);
      expect(discs.length).toBeLessThanOrEqual(4);
      expect(episodes.map((e) => e.sequence)).toEqual(episodes.map((_, i) => i + 1));
      expect(season.title).toMatch(/: Season \d+$/);
    }
    const withDiscs = new Set(
      ofType('disc')
        .map((d) => d.parent_id)
        .filter((p) => byId.get(p ?? 0)?.type === 'movie'),
    );
    expect(withDiscs.size / movies.length).toBeGreaterThan(0.1);
    expect(withDiscs.size / movies.length).toBeLessThan(0.2);
  });

  it('stores runtimes in seconds and ratings with one decimal', () => {
    for (const m of ofType('movie')) {
      expect(m.runtime).toBeGreaterThanOrEqual(40 * 60);
      expect(m.mpaa_rating).not.toBeNull();
      expect(m.tv_rating).toBeNull();
    }
    for (const e of ofType('program')) expect(e.runtime).toBeGreaterThanOrEqual(20 * 60);
  });

  it('has titles awaiting release and titles leaving within 14 days', () => {
    const movies = ofType('movie');
    const future = movies.filter((m) => windows(m.id).every((a) => a.available_from > NOW));
    const expiring = movies.filter((m) =>
      windows(m.id).some(
        (a) => a.available_until !== null && a.available_until > NOW && a.available_until <= NOW + 14 * DAY,
      ),
    );
    expect(future.length / movies.length).toBeGreaterThan(0.02);
    expect(future.length / movies.length).toBeLessThan(0.1);
    expect(expiring.length / movies.length).toBeGreaterThan(0.02);
    expect(expiring.length / movies.length).toBeLessThan(0.1);
  });

  it('offers some movies instant-only and some disc-only, and discs never stream', () => {
    const formats = (id: number) =>
      windows(id)
        .map((a) => a.format)
        .sort()
        .join(',');
    const movies = ofType('movie');
    expect(movies.some((m) => formats(m.id) === 'instant')).toBe(true);
    expect(movies.some((m) => !formats(m.id).includes('instant'))).toBe(true);
    for (const d of ofType('disc')) {
      expect(windows(d.id).length).toBeGreaterThan(0);
      expect(formats(d.id)).not.toContain('instant');
    }
  });

  it('makes a series available from its first season to its last', () => {
    for (const s of ofType('series')) {
      const seasons = ofType('season').filter((x) => x.parent_id === s.id);
      for (const own of windows(s.id)) {
        const member = seasons.flatMap((x) => windows(x.id)).filter((a) => a.format === own.format);
        expect(own.available_from).toBe(Math.min(...member.map((a) => a.available_from)));
      }
    }
  });

  it('credits real directors only as directors of their films', () => {
    const realIds = all('people')
      .filter((p) => p.id < DEMO_IDS.inventedPeople)
      .map((p) => p.id);
    expect(realIds.length).toBeGreaterThan(800);
    const real = new Set(realIds);
    for (const c of all('credits')) {
      if (!real.has(c.person_id)) continue;
      expect(c.role).toBe('director');
      expect(byId.get(c.title_id)?.type).toBe('movie');
    }
    for (const p of all('people'))
      if (real.has(p.id)) expect(p.bio).toMatch(/^Director of \d+ titles? in this catalog/);
  });

  it('gives every movie 3–8 invented cast members', () => {
    const cast = new Map<number, number>();
    for (const c of all('credits')) if (c.role === 'cast') cast.set(c.title_id, (cast.get(c.title_id) ?? 0) + 1);
    for (const m of ofType('movie')) {
      expect(cast.get(m.id)).toBeGreaterThanOrEqual(3);
      expect(cast.get(m.id)).toBeLessThanOrEqual(8);
    }
    // Performers recur across titles, so filmographies are more than one title long.
    expect(Math.max(...countBy(all('credits').map((c) => c.person_id)))).toBeGreaterThan(10);
  });

  it('links only people credited on the title from its synopsis', () => {
    const credited = new Map<number, Set<number>>();
    for (const c of all('credits'))
      (credited.get(c.title_id) ?? credited.set(c.title_id, new Set()).get(c.title_id)!).add(c.person_id);
    for (const t of titles) {
      for (const m of t.synopsis.matchAll(/<a href="([^"]*)">/g)) {
        const id = Number(/^\/catalog\/people\/(\d+)$/.exec(m[1] ?? '')?.[1]);
        expect(credited.get(t.id)?.has(id)).toBe(true);
      }
      expect(t.short_synopsis).not.toMatch(/[<>]/);
      expect(t.synopsis).not.toMatch(/&(?!(amp|lt|gt|quot);)/);
      expect(t.short_title.length).toBeLessThanOrEqual(t.title.length);
    }
  });

  it('keeps award years at or after release and formats within the title’s own', () => {
    for (const d of all('details')) {
      const t = byId.get(d.title_id)!;
      for (const a of JSON.parse(d.awards) as { year: number }[])
        expect(a.year).toBeGreaterThanOrEqual(t.release_year ?? 0);
      const own = new Set(windows(t.id).map((w) => w.format));
      for (const s of JSON.parse(d.screen_formats) as { format: string }[]) expect(own.has(s.format)).toBe(true);
    }
    expect(all('details').some((d) => d.awards !== '[]')).toBe(true);
    expect(all('details').some((d) => d.bonus_materials !== '[]')).toBe(true);
  });

  it('lists up to 10 similars of the same kind for movies and series', () => {
    const counts = countBy(all('similars').map((s) => s.title_id));
    expect(Math.max(...counts)).toBeLessThanOrEqual(10);
    const kinds = new Set(all('similars').map((s) => `${byId.get(s.title_id)?.type}->${byId.get(s.similar_id)?.type}`));
    expect([...kinds].sort()).toEqual(['movie->movie', 'series->series']);
  });
});

function countBy(xs: number[]): number[] {
  const m = new Map<number, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m.values()];
}
