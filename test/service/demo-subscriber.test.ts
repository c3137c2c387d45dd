import { describe, expect, it } from 'vitest';
import { DEMO_LOGIN, ensureDemoSubscriber } from '../../service/data/demo/subscriber-account.ts';
import { authenticateUser } from '../../service/store/subscriber/users.ts';
import { buildServer } from '../../service/server.ts';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import { call } from '../helpers/request.ts';
import { DATABASES, testDbForBlock, TEST_BASE } from '../helpers/service.ts';

describe.each(DATABASES)('the demo subscriber on %s', (kind) => {
  const opened = testDbForBlock(kind);

  it('is created once, keeps its password across starts, and can sign in', async () => {
    const { db } = opened;
    const first = await ensureDemoSubscriber(db);
    const second = await ensureDemoSubscriber(db);
    expect(first.login).toBe(DEMO_LOGIN);
    expect(second.password).toBe(first.password);
    const user = await authenticateUser(db, DEMO_LOGIN, first.password);
    expect(user?.accepted_tos).toBe(1);
    expect(await authenticateUser(db, DEMO_LOGIN, 'wrong')).toBeUndefined();
  });

  it('a service started with --demo lists the demo login and password under the sign-in form, and they sign in', async () => {
    const { db } = opened;
    const demo = await ensureDemoSubscriber(db);
    const consumer = await createConsumer(db, { name: 'Marquee', perSecond: 1000, perDay: 100000 });
    const app = buildServer({ db, baseUrl: TEST_BASE, demoAccount: demo });
    const svc = { app, consumer, baseUrl: TEST_BASE } as unknown as Parameters<typeof call>[0];
    try {
      const rt = new URLSearchParams(
        (await call(svc, '/oauth/request_token', { method: 'POST', form: { oauth_callback: 'oob' } })).body,
      );
      const page = await call(svc, '/oauth/login', { auth: 'none', query: { oauth_token: rt.get('oauth_token')! } });
      const form = page.body.indexOf('</form>');
      const note = page.body.indexOf('id="demo-account"');
      expect(form).toBeGreaterThan(0);
      expect(note).toBeGreaterThan(form);
      const login = /<code id="demo-login">([^<]+)<\/code>/.exec(page.body)![1]!;
      const password = /<code id="demo-password">([^<]+)<\/code>/.exec(page.body)![1]!;
      expect([login, password]).toEqual([demo.login, demo.password]);
      const done = await call(svc, '/oauth/login', {
        method: 'POST',
        auth: 'none',
        form: { oauth_token: rt.get('oauth_token')!, login, password },
      });
      expect(done.body).toContain('Marquee was authorized successfully');
    } finally {
      await app.close();
    }
  });
});
