import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { runCommand } from '../../service/cli/index.ts';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import { openDb, type Db } from '../../service/store/db.ts';

/** `consumers list`: oldest first, and consumers made in the same second in a stated order (by name, then key). */
describe('consumers list', () => {
  let dir: string;
  let db: Db;
  let log: MockInstance<typeof console.log>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-cli-'));
    db = await openDb({ sqlitePath: join(dir, 'marquee.sqlite') });
    log = vi.spyOn(console, 'log').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const makeAt = async (epochSeconds: number, name: string) => {
    vi.spyOn(Date, 'now').mockReturnValue(epochSeconds * 1000 + 400);
    const { key } = await createConsumer(db, { name });
    vi.mocked(Date.now).mockRestore();
    return key;
  };

  it('lists oldest first, then those of one second by name, whatever their random keys', async () => {
    const later = await makeAt(1_800_000_100, 'Alpha Later');
    const zulu = await makeAt(1_800_000_000, 'Zulu');
    const bravo = await makeAt(1_800_000_000, 'Bravo');
    expect(await runCommand(db, ['consumers', 'list', '--json'])).toBe(0);
    const listed = JSON.parse(String(log.mock.calls.at(-1)?.[0])) as Array<{ key: string }>;
    expect(listed.map((c) => c.key)).toEqual([bravo, zulu, later]);
  });
});
