import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { runCommand } from '../../service/cli/index.ts';
import { createConsumer, findConsumer } from '../../service/store/oauth/consumers.ts';
import { openDb, type Db } from '../../service/store/db.ts';
import { findAccessToken, issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { authenticateUser, getUser } from '../../service/store/subscriber/users.ts';

/** `users add|list|passwd|tokens|revoke-tokens|rotate-feed` and `consumers add --callback-origin` on a temporary SQLite store. */
describe('operator commands for subscribers', () => {
  let dir: string;
  let db: Db;
  let log: MockInstance<typeof console.log>;
  let err: MockInstance<typeof console.error>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-cli-users-'));
    db = await openDb({ sqlitePath: join(dir, 'marquee.sqlite') });
    log = vi.spyOn(console, 'log').mockImplementation(() => {});
    err = vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const printed = () => log.mock.calls.map((c) => String(c[0])).join('\n');
  const add = async (login: string) => {
    log.mockClear();
    expect(
      await runCommand(db, [
        'users',
        'add',
        '--login',
        login,
        '--password',
        'long-enough-1',
        '--first',
        'Ada',
        '--last',
        'Lovelace',
        '--json',
      ]),
    ).toBe(0);
    return (JSON.parse(printed()) as { user_id: string }).user_id;
  };

  it('users add creates a subscriber who can sign in, and prints {"user_id": …} with --json', async () => {
    const id = await add('Ada@Example.com');
    expect(id).toMatch(/^T1/);
    expect((await authenticateUser(db, 'ada@example.com', 'long-enough-1'))?.id).toBe(id);
    expect((await getUser(db, id))?.first_name).toBe('Ada');
  });

  it('users add refuses a taken login, a short password and missing names, in words', async () => {
    await add('ada@example.com');
    expect(
      await runCommand(db, [
        'users',
        'add',
        '--login',
        'ADA@example.com',
        '--password',
        'long-enough-2',
        '--first',
        'A',
        '--last',
        'B',
      ]),
    ).toBe(1);
    expect(String(err.mock.calls.at(-1)?.[0])).toBe('a subscriber with login ADA@example.com already exists');
    expect(
      await runCommand(db, [
        'users',
        'add',
        '--login',
        'b@example.com',
        '--password',
        'short',
        '--first',
        'A',
        '--last',
        'B',
      ]),
    ).toBe(1);
    expect(String(err.mock.calls.at(-1)?.[0])).toContain('at least 8 characters');
    expect(await runCommand(db, ['users', 'add', '--login', 'b@example.com', '--password', 'long-enough-1'])).toBe(2);
    expect(String(err.mock.calls.at(-1)?.[0])).toContain('users add --login L --password P --first F --last N');
  });

  it('users list shows every subscriber without secrets', async () => {
    const id = await add('ada@example.com');
    log.mockClear();
    expect(await runCommand(db, ['users', 'list', '--json'])).toBe(0);
    const listed = JSON.parse(printed()) as Array<Record<string, unknown>>;
    expect(listed).toEqual([
      expect.objectContaining({ user_id: id, login: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' }),
    ]);
    expect(printed()).not.toMatch(/password|scrypt|feed_token/);
  });

  it('users passwd replaces the password', async () => {
    await add('ada@example.com');
    expect(await runCommand(db, ['users', 'passwd', 'ada@example.com', '--password', 'a-new-secret'])).toBe(0);
    expect(await authenticateUser(db, 'ada@example.com', 'long-enough-1')).toBeUndefined();
    expect(await authenticateUser(db, 'ada@example.com', 'a-new-secret')).toBeDefined();
    expect(await runCommand(db, ['users', 'passwd', 'nobody@example.com', '--password', 'a-new-secret'])).toBe(1);
  });

  it("users tokens lists a subscriber's tokens and revoke-tokens ends them all", async () => {
    const id = await add('ada@example.com');
    const app = await createConsumer(db, { name: 'App' });
    const a = await issueAccessToken(db, app.key, id);
    const b = await issueAccessToken(db, app.key, id);
    log.mockClear();
    expect(await runCommand(db, ['users', 'tokens', 'ada@example.com', '--json'])).toBe(0);
    const listed = JSON.parse(printed()) as Array<{ token: string; revoked: number; secret?: string }>;
    expect(listed.map((t) => t.token).sort()).toEqual([a.token, b.token].sort());
    expect(listed.every((t) => t.secret === undefined && t.revoked === 0)).toBe(true);
    log.mockClear();
    expect(await runCommand(db, ['users', 'revoke-tokens', 'ada@example.com'])).toBe(0);
    expect(printed()).toBe('revoked 2 access tokens of ada@example.com');
    expect((await findAccessToken(db, a.token))?.revoked).toBe(1);
    expect((await findAccessToken(db, b.token))?.revoked).toBe(1);
  });

  it('users rotate-feed replaces the feed token', async () => {
    const id = await add('ada@example.com');
    const before = (await getUser(db, id))!.feed_token;
    expect(await runCommand(db, ['users', 'rotate-feed', 'ada@example.com'])).toBe(0);
    expect((await getUser(db, id))!.feed_token).not.toBe(before);
  });

  it('consumers add --callback-origin records an origin, and refuses a URL with a path', async () => {
    expect(
      await runCommand(db, [
        'consumers',
        'add',
        '--name',
        'Old Reader',
        '--legacy',
        '--callback-origin',
        'https://reader.example',
        '--json',
      ]),
    ).toBe(0);
    const key = (JSON.parse(printed()) as { key: string }).key;
    expect((await findConsumer(db, key))?.callback_origin).toBe('https://reader.example');
    await expect(
      runCommand(db, ['consumers', 'add', '--name', 'X', '--callback-origin', 'https://reader.example/cb']),
    ).rejects.toThrow(/--callback-origin must be an origin/);
  });
});
