import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNEXPECTED_MESSAGE } from '../../electron/core/errors.ts';
import { createCore } from '../../electron/core/compose.ts';
import { loadCore } from '../../electron/core-loader.ts';
import { ensureDefaultProfile, openNodeSettings, type SettingsStore } from '../../electron/core/settings/index.ts';
import type { OperationName } from '../../shared/ipc.ts';
import type { TitleSummary } from '../../shared/models.ts';
import { instantTitles, startLiveCore, valueOf, type LiveCoreEnv } from './helpers/live-core.ts';
import { postSignIn, readSignInPage } from '../helpers/sign-in-page.ts';

/** The whole API through `dispatch`, as the renderer uses it, against the real service. */
let env: LiveCoreEnv;
const opened: string[] = [];

/** Plays the system browser: the service's sign-in page, the form posted, the redirect followed. */
async function browse(loginUrl: string): Promise<void> {
  opened.push(loginUrl);
  const who = { login: env.svc.subscriber.login, password: env.svc.password };
  await (await postSignIn(await readSignInPage(loginUrl), who, 'follow')).text();
}

beforeAll(async () => {
  env = await startLiveCore({ signedIn: false, core: { openExternal: browse } });
});
afterAll(() => env?.close());

const dispatch = <N extends OperationName>(name: N, input: unknown) => env.core.dispatch(name, input);
const eventsOf = (name: string) => env.events.filter((e) => e.event === name).map((e) => e.payload);

describe('signed out', () => {
  it('reports the embedded profile, signed out', async () => {
    expect(valueOf(await dispatch('auth.status', {}))).toEqual({
      signedIn: false,
      profileId: 'embedded',
      account: null,
      user: null,
      pending: null,
      secureStorage: false,
    });
  });

  it('refuses what needs a sign-in with kind "auth", before any request', async () => {
    env.exchanges.length = 0;
    for (const [name, input] of [
      ['queue.list', { kind: 'instant' }],
      ['queue.move', { kind: 'instant', ref: `${env.svc.url}/catalog/titles/movies/1`, position: 1 }],
      ['user.current', {}],
      ['ratings.get', { refs: [`${env.svc.url}/catalog/titles/movies/1`] }],
      ['history.list', {}],
    ] as Array<[OperationName, unknown]>) {
      const result = await dispatch(name, input);
      expect(result, name).toMatchObject({
        ok: false,
        error: { kind: 'auth', message: expect.stringMatching(/sign in/i) },
      });
    }
    expect(env.exchanges).toEqual([]);
  });

  it('browses the catalog signed out (consumer-signed)', async () => {
    const page = valueOf(await dispatch('catalog.search', { term: 'The Matrix', max: 5 }));
    expect(page.items.map((t) => t.title)).toContain('The Matrix');
  });

  it("shows a title and its similars' box art signed out, as catalog.title does", async () => {
    const matrix = valueOf(await dispatch('catalog.search', { term: 'The Matrix', max: 5 })).items.find(
      (t) => t.title === 'The Matrix',
    )!;
    const { similarsRef } = valueOf(await dispatch('catalog.title', { ref: matrix.ref }));
    expect(valueOf(await dispatch('catalog.similars', { ref: similarsRef! })).items.length).toBeGreaterThan(0);
  });
});

describe('invalid input', () => {
  it('is refused with kind "invalid", whatever the host checked before', async () => {
    const cases: Array<[string, unknown]> = [
      ['catalog.search', { term: '' }],
      ['catalog.search', { term: 'x', max: 501 }],
      ['catalog.title', { ref: 42 }],
      ['catalog.similars', { ref: '' }],
      ['queue.move', { kind: 'instant', ref: 'x', position: 0 }],
      ['queue.add', { kind: 'laserdisc', ref: 'x' }],
      ['ratings.set', { ref: 'x', rating: 7 }],
      ['profiles.save', { label: 'evil', baseUrl: 'file:///etc/passwd', consumerKey: 'k', consumerSecret: 's' }],
      ['catalog.person', 'not an object'],
      ['shell.openExternal', {}],
      ['__proto__', {}],
    ];
    for (const [name, input] of cases) {
      const result = await dispatch(name as OperationName, input);
      expect(result, `${name} ${JSON.stringify(input)}`).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    }
  });
});

describe('a full pass, signed in', () => {
  let titles: TitleSummary[];
  let matrix: TitleSummary;

  it('signs in through the service page in the browser and tells the app', async () => {
    const status = valueOf(await dispatch('auth.signIn', {}));
    expect(status).toMatchObject({
      signedIn: true,
      profileId: 'embedded',
      user: { id: env.svc.subscriber.id, firstName: 'Avery' },
    });
    expect(opened).toHaveLength(1);
    expect(new URL(opened[0]!).pathname).toBe('/oauth/login');
    expect(eventsOf('auth.changed').at(-1)).toEqual(status);
    expect(valueOf(await dispatch('auth.status', {}))).toEqual(status);
    expect(valueOf(await dispatch('user.current', {}))).toMatchObject({ id: env.svc.subscriber.id, lastName: 'App' });
  });

  it('searches, shows a title and a person, autocompletes, lists categories', async () => {
    const page = valueOf(await dispatch('catalog.search', { term: 'The Matrix', max: 5 }));
    matrix = page.items.find((t) => t.title === 'The Matrix')!;
    const detail = valueOf(await dispatch('catalog.title', { ref: matrix.ref }));
    expect(detail).toMatchObject({ title: 'The Matrix', year: 1999 });
    const director = detail.directors[0]!;
    const person = valueOf(await dispatch('catalog.person', { ref: director.ref }));
    expect(person.name).toBe(director.name);
    expect(person.filmography.map((f) => f.ref)).toContain(matrix.ref);
    expect(valueOf(await dispatch('catalog.autocomplete', { term: 'matri' }))).toContain('The Matrix');
    expect(valueOf(await dispatch('catalog.categories', { scheme: 'genres' })).length).toBeGreaterThan(0);
    const missing = await dispatch('catalog.title', { ref: `${env.svc.url}/catalog/titles/movies/999999999` });
    expect(missing).toMatchObject({ ok: false, error: { kind: 'not_found', status: 404 } });
  });

  it('adds, moves and removes queue titles; every change is announced', async () => {
    titles = await instantTitles(env.other, 3);
    const [a, b, c] = titles.map((t) => t.ref) as [string, string, string];
    expect(valueOf(await dispatch('queue.list', { kind: 'instant' })).items).toEqual([]);
    valueOf(await dispatch('queue.add', { kind: 'instant', ref: a }));
    valueOf(await dispatch('queue.add', { kind: 'instant', ref: b }));
    let queue = valueOf(await dispatch('queue.add', { kind: 'instant', ref: c, position: 1 }));
    expect(queue.items.map((i) => i.ref)).toEqual([c, a, b]);
    queue = valueOf(await dispatch('queue.move', { kind: 'instant', ref: c, position: 3 }));
    expect(queue.items.map((i) => [i.ref, i.position])).toEqual([
      [a, 1],
      [b, 2],
      [c, 3],
    ]);
    queue = valueOf(await dispatch('queue.remove', { kind: 'instant', ref: a }));
    expect(queue.items.map((i) => i.ref)).toEqual([b, c]);
    expect(queue).toMatchObject({ kind: 'instant', total: 2, pendingEdits: 0 });
    const changed = eventsOf('queue.changed') as Array<{ queue: { etag: string } }>;
    expect(changed).toHaveLength(5);
    expect(changed.at(-1)!.queue.etag).toBe(queue.etag);
    const listed = valueOf(await dispatch('queue.list', { kind: 'instant', view: 'available', max: 1 }));
    expect(listed).toMatchObject({ view: 'available', total: 2 });
    expect(listed.items.map((i) => i.ref)).toEqual([b]);

    const states = valueOf(await dispatch('titles.states', { refs: [b, a] }));
    expect(states.map((s) => s.ref)).toEqual([b, a]);
    expect(states[0]!.instant).toContain('In Queue');
  });

  it('rates, reads ratings, recommends and shows history', async () => {
    const rated = valueOf(await dispatch('ratings.set', { ref: matrix.ref, rating: 5 }));
    expect(rated).toMatchObject({ title: { ref: matrix.ref }, userRating: 5 });
    const changed = valueOf(await dispatch('ratings.set', { ref: matrix.ref, rating: 3 }));
    expect(changed.userRating).toBe(3);
    const [rating] = valueOf(await dispatch('ratings.get', { refs: [matrix.ref] }));
    expect(rating).toMatchObject({ userRating: 3 });
    const cleared = valueOf(await dispatch('ratings.set', { ref: matrix.ref, rating: null }));
    expect(cleared.userRating).toBeNull();

    const recs = valueOf(await dispatch('recommendations.list', { max: 5 }));
    expect(recs.items.length).toBeGreaterThan(0);
    expect(recs.items.length).toBeLessThanOrEqual(5);
    const history = valueOf(await dispatch('history.list', { view: 'watched' }));
    expect(history).toMatchObject({ items: [], total: 0 });
  });

  it('keeps profiles: a new one is signed out until signed in, switching back keeps the session', async () => {
    const before = valueOf(await dispatch('profiles.list', {}));
    expect(before.activeId).toBe('embedded');
    expect(before.profiles.map((p) => p.id)).toEqual(['embedded']);
    const saved = valueOf(
      await dispatch('profiles.save', {
        label: 'Second',
        baseUrl: env.svc.url,
        consumerKey: env.svc.consumer.key,
        consumerSecret: env.svc.consumer.secret,
      }),
    );
    expect(saved).toMatchObject({ label: 'Second', baseUrl: env.svc.url });
    expect(valueOf(await dispatch('profiles.list', {})).profiles.map((p) => p.id)).toEqual(['embedded', saved.id]);

    const other = valueOf(await dispatch('profiles.activate', { id: saved.id }));
    expect(other).toMatchObject({ signedIn: false, profileId: saved.id, user: null });
    expect(eventsOf('auth.changed').at(-1)).toEqual(other);
    expect(await dispatch('queue.list', { kind: 'instant' })).toMatchObject({ ok: false, error: { kind: 'auth' } });
    expect(await dispatch('profiles.activate', { id: 'nope' })).toMatchObject({
      ok: false,
      error: { kind: 'not_found' },
    });

    const back = valueOf(await dispatch('profiles.activate', { id: 'embedded' }));
    expect(back).toMatchObject({ signedIn: true, profileId: 'embedded', user: { id: env.svc.subscriber.id } });
    expect(valueOf(await dispatch('queue.list', { kind: 'instant' })).items).toHaveLength(2);
  });

  it('signs out: the token is forgotten and protected operations are refused', async () => {
    const status = valueOf(await dispatch('auth.signOut', {}));
    expect(status).toMatchObject({ signedIn: false, profileId: 'embedded', user: null });
    expect(eventsOf('auth.changed').at(-1)).toEqual(status);
    expect(env.settings.getTokens('embedded')).toBeNull();
    expect(await dispatch('queue.list', { kind: 'instant' })).toMatchObject({ ok: false, error: { kind: 'auth' } });
  });
});

describe('failures as values', () => {
  let dir: string;
  let settings: SettingsStore;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-handlers-'));
    settings = openNodeSettings({ dir, onWarning: () => {} });
    ensureDefaultProfile(settings, {
      baseUrl: env.svc.url,
      consumerKey: env.svc.consumer.key,
      consumerSecret: env.svc.consumer.secret,
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a per-day quota refusal is kind "quota" with retryAfter, and announced', async () => {
    const quota: typeof fetch = () =>
      Promise.resolve(
        new Response('<status><status_code>403</status_code><message>Over queries per day limit</message></status>', {
          status: 403,
          headers: { 'content-type': 'application/xml', 'retry-after': '2' },
        }),
      );
    const core = createCore({ userDataDir: dir, settings, openExternal: () => {}, fetch: quota, log: () => {} });
    const announced: unknown[] = [];
    core.on('quota.exceeded', (p) => announced.push(p));
    const result = await core.dispatch('catalog.search', { term: 'heat' });
    expect(result).toEqual({
      ok: false,
      error: { kind: 'quota', status: 403, message: 'Over queries per day limit', retryAfter: 2 },
    });
    expect(announced).toEqual([{ retryAfter: 2, message: 'Over queries per day limit' }]);
    await core.close();
  });

  it('an unexpected error is kind "server" with a generic message, and logged', async () => {
    const broken = new Proxy(settings, {
      get(target, key, receiver) {
        if (key === 'listProfiles')
          return () => {
            throw new TypeError('disk on fire at /home/someone/.config');
          };
        return Reflect.get(target, key, receiver);
      },
    });
    const logged: unknown[] = [];
    const core = createCore({
      userDataDir: dir,
      settings: broken,
      openExternal: () => {},
      log: (_m, e) => logged.push(e),
    });
    const result = await core.dispatch('profiles.list', {});
    expect(result).toEqual({ ok: false, error: { kind: 'server', message: UNEXPECTED_MESSAGE } });
    expect(String(logged[0])).toContain('disk on fire');
    await core.close();
  });
});

describe('as a host creates it (electron/core-loader.ts)', () => {
  it('opens the host settings and makes the embedded service the active profile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marquee-host-'));
    try {
      const core = await loadCore({
        userDataDir: dir,
        host: 'node',
        embeddedService: { url: env.svc.url, consumer: { key: env.svc.consumer.key, secret: env.svc.consumer.secret } },
        openExternal: async () => {},
      });
      const { profiles, activeId } = valueOf(await core.dispatch('profiles.list', {}));
      expect(activeId).toBe('embedded');
      expect(profiles).toEqual([
        expect.objectContaining({ id: 'embedded', baseUrl: env.svc.url, consumerKey: env.svc.consumer.key }),
      ]);
      expect(valueOf(await core.dispatch('auth.status', {}))).toMatchObject({ signedIn: false, profileId: 'embedded' });
      expect(valueOf(await core.dispatch('catalog.autocomplete', { term: 'matri' }))).toContain('The Matrix');
      await core.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
