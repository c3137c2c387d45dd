import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationName } from '../../shared/ipc.ts';
import { startLiveCore, valueOf, type LiveCoreEnv } from './helpers/live-core.ts';

/** catalog.browse, catalog.people, a title view and its similars, filmographies, through dispatch, against the real service. */
let env: LiveCoreEnv;

beforeAll(async () => {
  env = await startLiveCore({ signedIn: false });
});
afterAll(() => env?.close());

const dispatch = <N extends OperationName>(name: N, input: unknown) => env.core.dispatch(name, input);

describe('catalog.browse', () => {
  it('lists a genre as /categories/genres names it, paged by start, signed out', async () => {
    const genre = valueOf(await dispatch('catalog.categories', { scheme: 'genres' })).find(
      (g) => g.term === 'Sci-Fi & Fantasy',
    )!.term;
    const first = valueOf(await dispatch('catalog.browse', { genre, max: 10 }));
    expect(first.items).toHaveLength(10);
    expect(first.total).toBeGreaterThan(10);
    expect(first.items.every((t) => t.genres.includes(genre) && t.boxArt.medium !== '')).toBe(true);
    const second = valueOf(await dispatch('catalog.browse', { genre, start: 10, max: 10 }));
    expect(second.start).toBe(10);
    expect(second.total).toBe(first.total);
    const refs = new Set(first.items.map((t) => t.ref));
    expect(second.items.some((t) => refs.has(t.ref))).toBe(false);
  });

  it('filters by type and by "available now"', async () => {
    const genre = 'Drama';
    const all = valueOf(await dispatch('catalog.browse', { genre, max: 100 }));
    const series = valueOf(await dispatch('catalog.browse', { genre, type: 'series', max: 100 }));
    expect(series.items.length).toBeGreaterThan(0);
    expect(series.items.every((t) => t.type === 'series')).toBe(true);
    const movies = valueOf(await dispatch('catalog.browse', { genre, type: 'movie', max: 100 }));
    expect(movies.items.every((t) => t.type === 'movie')).toBe(true);
    expect(movies.total + series.total).toBe(all.total);
    const now = valueOf(await dispatch('catalog.browse', { genre, availableNow: true, max: 100 }));
    expect(now.total).toBeGreaterThan(0);
    expect(now.total).toBeLessThan(all.total);
  });

  it('says in words when the genre is not one the service lists', async () => {
    const result = await dispatch('catalog.browse', { genre: 'Not A Genre' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid', status: 400 } });
  });
});

describe('catalog.people', () => {
  it('finds a person by a word of their name, paged', async () => {
    const found = valueOf(await dispatch('catalog.people', { term: 'Kubrick' }));
    expect(found.items.map((p) => p.name)).toContain('Stanley Kubrick');
    expect(found.items[0]!.ref).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/catalog\/people\//);
    const one = valueOf(await dispatch('catalog.people', { term: 'a', max: 1 }));
    expect(one.items).toHaveLength(1);
    expect(one.total).toBeGreaterThan(1);
    const next = valueOf(await dispatch('catalog.people', { term: 'a', start: 1, max: 1 }));
    expect(next.items[0]!.ref).not.toBe(one.items[0]!.ref);
  });

  it('answers an empty page for a name nobody has', async () => {
    expect(valueOf(await dispatch('catalog.people', { term: 'Zzyzxquorp' }))).toMatchObject({ items: [], total: 0 });
  });
});

describe('a title view', () => {
  const matrixRef = async () =>
    valueOf(await dispatch('catalog.search', { term: 'The Matrix', max: 5 })).items.find(
      (t) => t.title === 'The Matrix',
    )!.ref;

  it('is exactly one request on the wire, naming its similars', async () => {
    const ref = await matrixRef();
    env.exchanges.length = 0;
    const detail = valueOf(await dispatch('catalog.title', { ref }));
    expect(env.exchanges.map((e) => `${e.method} ${new URL(e.url).pathname}`)).toEqual([
      `GET ${new URL(ref).pathname}`,
    ]);
    expect(detail.similars.length).toBeGreaterThan(3);
    expect(detail.similars.every((s) => s.ref !== ref && s.name !== '')).toBe(true);
    expect(detail.similarsRef).not.toBeNull();
  });

  it('is one request again on a revisit, answered 304 from the ETag cache', async () => {
    const ref = await matrixRef();
    const first = valueOf(await dispatch('catalog.title', { ref }));
    env.exchanges.length = 0;
    expect(valueOf(await dispatch('catalog.title', { ref }))).toEqual(first);
    expect(env.exchanges.map((e) => e.status)).toEqual([304]);
  });

  it('leaves the similars with box art to catalog.similars: one request, the same titles as the names', async () => {
    const detail = valueOf(await dispatch('catalog.title', { ref: await matrixRef() }));
    env.exchanges.length = 0;
    const similars = valueOf(await dispatch('catalog.similars', { ref: detail.similarsRef! }));
    expect(env.exchanges).toHaveLength(1);
    expect(similars.items.map((t) => ({ ref: t.ref, name: t.title }))).toEqual(detail.similars);
    expect(similars.items.every((t) => t.title !== '' && t.boxArt.small.includes('/box_art/small/'))).toBe(true);
  });
});

describe('box art beyond the title itself', () => {
  it("a person's filmography is titles with box art", async () => {
    const kubrick = valueOf(await dispatch('catalog.people', { term: 'Stanley Kubrick' })).items[0]!;
    const person = valueOf(await dispatch('catalog.person', { ref: kubrick.ref }));
    expect(person.filmography.length).toBeGreaterThan(3);
    expect(person.filmography.every((t) => t.year !== null && t.boxArt.large.includes('/box_art/large/'))).toBe(true);
  });
});
