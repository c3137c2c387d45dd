import { describe, expect, it } from 'vitest';
import type { CatalogBatch } from '../../service/data/catalog-batch.ts';
import { checkCatalog } from '../../service/data/check.ts';
import { demoCatalog } from '../../service/data/demo/catalog.ts';
import { syntheticCatalog } from '../../service/data/synthetic/catalog.ts';

const NOW = 1_750_000_000;
const batches = [...syntheticCatalog(2_000, NOW)];
const titles = batches.flatMap((b) => b.titles);

describe('synthetic catalog', () => {
  it('makes exactly the requested number of titles in batches of at most 1,000', () => {
    expect(titles).toHaveLength(2_000);
    expect(batches).toHaveLength(2);
    for (const b of batches) expect(b.titles.length).toBeLessThanOrEqual(1_000);
  });

  it('passes every consistency check', () => {
    expect(checkCatalog(batches)).toEqual([]);
  });

  it('is mostly movies, with a few series and their seasons, episodes and discs', () => {
    const count = (type: string) => titles.filter((t) => t.type === type).length;
    expect(count('movie')).toBeGreaterThan(1_900);
    expect(count('movie') + count('series') + count('season') + count('program') + count('disc')).toBe(2_000);
    const tv = 2_000 - count('movie');
    expect(tv).toBeLessThan(200);
  });

  it('has about a quarter as many people as titles, each once', () => {
    const people = batches.flatMap((b) => b.people);
    expect(people).toHaveLength(500);
    expect(new Set(people.map((p) => p.id)).size).toBe(500);
  });

  it('is deterministic by seed', () => {
    expect(JSON.stringify([...syntheticCatalog(2_000, NOW)])).toBe(JSON.stringify(batches));
    const other = [...syntheticCatalog(2_000, NOW, 2)].flatMap((b) => b.titles);
    expect(other.map((t) => t.synopsis)).not.toEqual(titles.map((t) => t.synopsis));
  });

  it('keeps its ids clear of the demo catalog, so both load together', () => {
    const both: CatalogBatch[] = [...demoCatalog(NOW), ...batches];
    expect(checkCatalog(both)).toEqual([]);
  });

  it('handles a catalog smaller than one batch and refuses impossible sizes', () => {
    const tiny = [...syntheticCatalog(7, NOW)];
    expect(tiny.flatMap((b) => b.titles)).toHaveLength(7);
    expect(checkCatalog(tiny)).toEqual([]);
    expect(() => syntheticCatalog(0, NOW).next()).toThrow(RangeError);
    expect(() => syntheticCatalog(1_000_001, NOW).next()).toThrow(RangeError);
  });

  it('gives movies similars of their own genre or director', () => {
    const byId = new Map(titles.map((t) => [t.id, t]));
    const genre = new Map<number, Set<string>>();
    for (const g of batches.flatMap((b) => b.genres))
      (genre.get(g.title_id) ?? genre.set(g.title_id, new Set()).get(g.title_id)!).add(g.genre);
    const directors = new Map<number, number>();
    for (const c of batches.flatMap((b) => b.credits))
      if (c.role === 'director' && byId.get(c.title_id)?.type === 'movie') directors.set(c.title_id, c.person_id);
    const unrelated = batches
      .flatMap((b) => b.similars)
      .filter((s) => {
        if (byId.get(s.title_id)?.type !== 'movie') return false;
        const shared = [...(genre.get(s.title_id) ?? [])].some((g) => genre.get(s.similar_id)?.has(g));
        return !shared && directors.get(s.title_id) !== directors.get(s.similar_id);
      });
    expect(unrelated).toEqual([]);
  });
});
