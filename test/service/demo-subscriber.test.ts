import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGIN, ensureDemoSubscriber } from '../../service/demo-subscriber.ts';
import { authenticateUser } from '../../service/store/users.ts';
import { DATABASES, openTestDb } from '../helpers/service.ts';
import type { Db } from '../../service/store/db.ts';

describe.each(DATABASES)('the demo subscriber on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it('is created once, keeps its password across starts, and can sign in', async () => {
    const first = await ensureDemoSubscriber(db);
    const second = await ensureDemoSubscriber(db);
    expect(first.login).toBe(DEMO_LOGIN);
    expect(second.password).toBe(first.password);
    const user = await authenticateUser(db, DEMO_LOGIN, first.password);
    expect(user?.accepted_tos).toBe(1);
    expect(await authenticateUser(db, DEMO_LOGIN, 'wrong')).toBeUndefined();
  });
});
