import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../service/config.ts';
import { openStore } from '../../service/store/files.ts';

/** Bad settings and bad files are named in the error; the store's files are the user's alone. */
describe('service settings and store files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-settings-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a database URL that is not one names the setting', () => {
    expect(() => parseConfig(['--database-url', 'notaurl'], {})).toThrow(
      'invalid --database-url (or DATABASE_URL): expected postgres://user:password@host:port/database, got "notaurl"',
    );
    expect(() => parseConfig([], { DATABASE_URL: 'mysql://u:secret@h/db' })).toThrow(
      /DATABASE_URL.*"mysql:\/\/u:…@h\/db"/,
    );
    expect(parseConfig(['--database-url', 'postgres://u@h/db'], {}).config.databaseUrl).toBe('postgres://u@h/db');
  });

  it('a port or base URL that is not one names the setting', () => {
    expect(() => parseConfig(['--port', 'http'], {})).toThrow(/^invalid --port \(or MARQUEE_PORT\): http/);
    expect(() => parseConfig([], { MARQUEE_BASE_URL: 'example.com' })).toThrow(
      /^invalid --base-url \(or MARQUEE_BASE_URL\)/,
    );
  });

  it('a corrupt database file is named in the error and left as it was', async () => {
    const path = join(dir, 'marquee.sqlite');
    const garbage = 'this is not a database, but it is over 512 bytes long. '.repeat(11);
    writeFileSync(path, garbage);
    await expect(openStore({ sqlitePath: path })).rejects.toThrow(
      `cannot open the database file ${path}: file is not a database`,
    );
    expect(statSync(path).size).toBe(garbage.length);
  });

  it('creates the data folder 0700 and the database 0600, and tightens ones made looser before', async () => {
    const folder = join(dir, 'data');
    const path = join(folder, 'marquee.sqlite');
    const db = await openStore({ sqlitePath: path });
    await db.kysely.selectFrom('meta').selectAll().execute();
    await db.close();
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const { chmodSync } = await import('node:fs');
    chmodSync(folder, 0o755);
    chmodSync(path, 0o644);
    await (await openStore({ sqlitePath: path })).close();
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
