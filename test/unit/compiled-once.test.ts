import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../service/store/compiled-once.ts';
import { openDb, type Db } from '../../service/store/db.ts';
import { createUser, getUser } from '../../service/store/subscriber/users.ts';

/** A query compiled once runs with each call's values, on each database it meets. */
describe('compiledOnce', () => {
  let dir: string;
  let dbs: Db[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-compiled-once-'));
    dbs = [await openDb({ sqlitePath: join(dir, 'a.sqlite') }), await openDb({ sqlitePath: join(dir, 'b.sqlite') })];
  });
  afterEach(async () => {
    for (const db of dbs) await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers each call with the rows of its own value, not those of the first call', async () => {
    const [db] = dbs as [Db];
    const ada = await createUser(db, {
      login: 'ada@example.com',
      password: 'pw-ada-1',
      firstName: 'Ada',
      lastName: 'L',
    });
    const bob = await createUser(db, {
      login: 'bob@example.com',
      password: 'pw-bob-1',
      firstName: 'Bob',
      lastName: 'B',
    });
    expect((await getUser(db, ada.id))?.login).toBe('ada@example.com');
    expect((await getUser(db, bob.id))?.login).toBe('bob@example.com');
    expect(await getUser(db, 'T1nobody')).toBeUndefined();
  });

  it('compiles per database: a second store is read, not the first one', async () => {
    const [a, b] = dbs as [Db, Db];
    const onA = await createUser(a, { login: 'a@example.com', password: 'pw-a-123', firstName: 'A', lastName: 'A' });
    const onB = await createUser(b, { login: 'b@example.com', password: 'pw-b-123', firstName: 'B', lastName: 'B' });
    expect(await getUser(b, onA.id)).toBeUndefined();
    expect((await getUser(b, onB.id))?.login).toBe('b@example.com');
  });

  it('refuses a call whose values do not match the placeholders', async () => {
    const byLogin = compiledOnce((k) => k.selectFrom('users').select('id').where('login', '=', ''));
    await expect(byLogin(dbs[0]!, 'x', 'y')).rejects.toThrow(/1 placeholders, 2 values/);
  });
});
