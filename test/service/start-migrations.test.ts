import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../../service/store/db.ts';
import { migrations } from '../../service/store/migrations/index.ts';

/** Opening a store brings its schema up to date; a restart on a current schema finds it so. */
describe('store schema on start', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const freshPath = () => join((dir = mkdtempSync(join(tmpdir(), 'marquee-start-'))), 'marquee.sqlite');
  const applied = async (path: string) => {
    const db = await openDb({ sqlitePath: path });
    try {
      return (await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db.kysely)).rows.map(
        (r) => r.name,
      );
    } finally {
      await db.close();
    }
  };

  it('a first open runs every migration, a reopen runs none again and serves the same schema', async () => {
    const path = freshPath();
    expect(await applied(path)).toEqual(Object.keys(migrations));
    expect(await applied(path)).toEqual(Object.keys(migrations));
    const db = await openDb({ sqlitePath: path });
    try {
      await db.kysely.insertInto('people').values({ id: 1, name: 'Reopened', bio: '' }).execute();
      expect((await db.kysely.selectFrom('people').select('name').execute()).map((r) => r.name)).toEqual(['Reopened']);
    } finally {
      await db.close();
    }
  });

  it('a store that has run a migration this service does not know is refused, as before', async () => {
    const path = freshPath();
    const db = await openDb({ sqlitePath: path });
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('999-from-a-newer-version', '2030-01-01T00:00:00.000Z')`.execute(
      db.kysely,
    );
    await db.close();
    await expect(openDb({ sqlitePath: path })).rejects.toThrow(/999-from-a-newer-version/);
  });
});
