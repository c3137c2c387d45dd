import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpGeneration } from '../../service/store/catalog/generation.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, startTestService, type TestService } from '../helpers/service.ts';

/** Catalog representations are kept per catalog generation; their ETags change exactly when their bytes do. */
describe.each(DATABASES)('kept catalog representations on %s', (kind) => {
  let svc: TestService;
  let ids: number[];
  beforeAll(async () => {
    svc = await startTestService(kind);
    ids = (
      await svc.db.kysely.selectFrom('titles').select('id').where('type', '=', 'movie').orderBy('id').limit(2).execute()
    ).map((r) => r.id);
  });
  afterAll(() => svc.close());

  const movie = (id: number, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    call(svc, `/catalog/titles/movies/${id}`, { query, headers });

  it('a repeat GET is the same bytes and ETag, and If-None-Match with it is a 304', async () => {
    const first = await movie(ids[0]!, { expand: 'synopsis,cast' });
    const again = await movie(ids[0]!, { expand: 'synopsis,cast' });
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    const revalidated = await movie(
      ids[0]!,
      { expand: 'synopsis,cast' },
      { 'if-none-match': first.headers.etag as string },
    );
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    const other = await movie(ids[0]!, { expand: 'synopsis' });
    expect(other.headers.etag).not.toBe(first.headers.etag);
    const json = await movie(ids[0]!, { expand: 'synopsis,cast', output: 'json' });
    expect(json.headers.etag).not.toBe(first.headers.etag);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('after a catalog load, the changed title has a new ETag and body; an unchanged one keeps its ETag', async () => {
    const [changed, unchanged] = [await movie(ids[0]!), await movie(ids[1]!)];
    const row = await svc.db.kysely
      .selectFrom('titles')
      .select('title')
      .where('id', '=', ids[0]!)
      .executeTakeFirstOrThrow();
    await svc.db.kysely
      .updateTable('titles')
      .set({ title: `${row.title} (Restored)` })
      .where('id', '=', ids[0]!)
      .execute();
    try {
      // Edits reach clients with the next generation (every load bumps it).
      expect((await movie(ids[0]!)).headers.etag).toBe(changed.headers.etag);
      await bumpGeneration(svc.db);
      const after = await movie(ids[0]!);
      expect(after.headers.etag).not.toBe(changed.headers.etag);
      expect(after.body).toContain('(Restored)');
      expect((await movie(ids[0]!, {}, { 'if-none-match': changed.headers.etag as string })).statusCode).toBe(200);
      const same = await movie(ids[1]!, {}, { 'if-none-match': unchanged.headers.etag as string });
      expect(same.statusCode).toBe(304);
    } finally {
      await svc.db.kysely.updateTable('titles').set({ title: row.title }).where('id', '=', ids[0]!).execute();
      await bumpGeneration(svc.db);
    }
  });

  it('an error is never kept: a missing title stays 404, a bad parameter 400', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await call(svc, '/catalog/titles/movies/1')).statusCode).toBe(404);
      expect((await call(svc, '/catalog/titles', { query: { term: 'star', start_index: 'x' } })).statusCode).toBe(400);
    }
  });
});
