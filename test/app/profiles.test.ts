import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationName } from '../../shared/ipc.ts';
import { startLiveCore, valueOf, type LiveCoreEnv } from './helpers/live-core.ts';

/** profiles.save (checked by a signed call first) and profiles.remove, through dispatch, against the real service. */
let env: LiveCoreEnv;

beforeAll(async () => {
  env = await startLiveCore({ signedIn: true });
});
afterAll(() => env?.close());

const dispatch = <N extends OperationName>(name: N, input: unknown) => env.core.dispatch(name, input);
const good = () => ({
  label: 'Second',
  baseUrl: env.svc.url,
  consumerKey: env.svc.consumer.key,
  consumerSecret: env.svc.consumer.secret,
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('profiles.save', () => {
  it('saves a profile whose address, key and secret the service accepts', async () => {
    const saved = valueOf(await dispatch('profiles.save', good()));
    expect(saved).toMatchObject({ label: 'Second', baseUrl: env.svc.url });
    expect(valueOf(await dispatch('profiles.list', {})).profiles.map((p) => p.id)).toContain(saved.id);
  });

  it('refuses an address where nothing answers, naming it', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const before = valueOf(await dispatch('profiles.list', {})).profiles;
    const result = await dispatch('profiles.save', { ...good(), label: 'Nowhere', baseUrl: url });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'invalid', message: `Couldn't reach ${url} — check the address.` },
    });
    expect(valueOf(await dispatch('profiles.list', {})).profiles).toEqual(before);
  });

  it('refuses an unknown consumer key and a wrong secret in the same words', async () => {
    const refused = {
      ok: false,
      error: { kind: 'invalid', message: expect.stringContaining('The service refused the consumer key or secret') },
    };
    expect(await dispatch('profiles.save', { ...good(), consumerKey: 'no-such-key' })).toMatchObject(refused);
    expect(await dispatch('profiles.save', { ...good(), consumerSecret: 'wrong-secret' })).toMatchObject(refused);
  });

  it('refuses a server that is not a catalog service', async () => {
    const result = await dispatch('profiles.save', { ...good(), baseUrl: `${env.svc.url}/no/such/service` });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'invalid', message: expect.stringContaining('not as a Marquee catalog service') },
    });
  });

  it('renames a profile without asking the service again', async () => {
    const saved = valueOf(await dispatch('profiles.save', good()));
    await env.stopService();
    try {
      expect(
        valueOf(await dispatch('profiles.save', { ...good(), id: saved.id, label: 'Renamed offline' })).label,
      ).toBe('Renamed offline');
    } finally {
      await env.startService();
    }
  });
});

describe('profiles.remove', () => {
  it('removes an active profile and falls back to the built-in one, telling the app', async () => {
    const extra = valueOf(await dispatch('profiles.save', { ...good(), label: 'To remove' }));
    valueOf(await dispatch('profiles.activate', { id: extra.id }));
    const after = valueOf(await dispatch('profiles.remove', { id: extra.id }));
    expect(after.activeId).toBe('embedded');
    expect(after.profiles.map((p) => p.id)).not.toContain(extra.id);
    const status = valueOf(await dispatch('auth.status', {}));
    expect(status).toMatchObject({ profileId: 'embedded', signedIn: true });
    expect(env.events.filter((e) => e.event === 'auth.changed').at(-1)!.payload).toMatchObject({
      profileId: 'embedded',
    });
  });

  it('removes an inactive profile and keeps the active one', async () => {
    const extra = valueOf(await dispatch('profiles.save', { ...good(), label: 'Inactive' }));
    const after = valueOf(await dispatch('profiles.remove', { id: extra.id }));
    expect(after.activeId).toBe('embedded');
    expect(after.profiles.map((p) => p.id)).not.toContain(extra.id);
  });

  it('refuses to remove the built-in demo profile, or one that does not exist', async () => {
    expect(await dispatch('profiles.remove', { id: 'embedded' })).toEqual({
      ok: false,
      error: { kind: 'invalid', message: 'The built-in demo service cannot be removed.' },
    });
    expect(await dispatch('profiles.remove', { id: 'nope' })).toMatchObject({
      ok: false,
      error: { kind: 'not_found' },
    });
    expect(valueOf(await dispatch('profiles.list', {})).profiles.map((p) => p.id)).toContain('embedded');
  });
});
