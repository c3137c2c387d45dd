import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { runCommand } from '../../service/cli/index.ts';
import { createConsumer, findConsumer } from '../../service/store/oauth/consumers.ts';
import { openDb, type Db } from '../../service/store/db.ts';

/** `consumers quota <key> [--per-second N|default] [--per-day N|default]` on a temporary SQLite store. */
describe('consumers quota', () => {
  let dir: string;
  let db: Db;
  let log: MockInstance<typeof console.log>;
  let key: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-cli-'));
    db = await openDb({ sqlitePath: join(dir, 'marquee.sqlite') });
    log = vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    key = (await createConsumer(db, { name: 'App', perSecond: 5, perDay: 1000 })).key;
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const quota = async () => {
    const c = await findConsumer(db, key);
    return { perSecond: c?.per_second, perDay: c?.per_day };
  };

  it('changes only the budget it is given', async () => {
    expect(await runCommand(db, ['consumers', 'quota', key, '--per-second', '7'])).toBe(0);
    expect(await quota()).toEqual({ perSecond: 7, perDay: 1000 });
    expect(await runCommand(db, ['consumers', 'quota', key, '--per-day', '50'])).toBe(0);
    expect(await quota()).toEqual({ perSecond: 7, perDay: 50 });
    expect(await runCommand(db, ['consumers', 'quota', key, '--per-second', '1', '--per-day', '2'])).toBe(0);
    expect(await quota()).toEqual({ perSecond: 1, perDay: 2 });
    expect(log).toHaveBeenLastCalledWith(`quota for ${key}: 1 per second, 2 per day`);
  });

  it('`default` returns a budget to the service default; 0 stays a budget (suspended)', async () => {
    expect(await runCommand(db, ['consumers', 'quota', key, '--per-day', 'default'])).toBe(0);
    expect(await quota()).toEqual({ perSecond: 5, perDay: null });
    expect(await runCommand(db, ['consumers', 'quota', key, '--per-second', '0'])).toBe(0);
    expect(await quota()).toEqual({ perSecond: 0, perDay: null });
    expect(await runCommand(db, ['consumers', 'quota', key, '--per-second', 'default'])).toBe(0);
    expect(await quota()).toEqual({ perSecond: null, perDay: null });
    expect(log).toHaveBeenLastCalledWith(`quota for ${key}: default per second, default per day`);
  });

  it('with no budget given, changes nothing and prints the quota', async () => {
    expect(await runCommand(db, ['consumers', 'quota', key])).toBe(0);
    expect(await quota()).toEqual({ perSecond: 5, perDay: 1000 });
    expect(log).toHaveBeenLastCalledWith(`quota for ${key}: 5 per second, 1000 per day`);
  });

  it('refuses a bad or missing value without changing anything, and an unknown key', async () => {
    await expect(runCommand(db, ['consumers', 'quota', key, '--per-second', 'lots'])).rejects.toThrow(
      /not a non-negative integer/,
    );
    // A flag with no value must not read as 0 (which would refuse every request).
    await expect(runCommand(db, ['consumers', 'quota', key, '--per-day', '10', '--per-second'])).rejects.toThrow(
      /not a non-negative integer/,
    );
    expect(await quota()).toEqual({ perSecond: 5, perDay: 1000 });
    expect(await runCommand(db, ['consumers', 'quota', 'nosuchkey', '--per-second', '1'])).toBe(1);
  });
});
