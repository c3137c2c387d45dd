import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from '../../service/store/statement-cache.ts';

describe('the prepared-statement cache', () => {
  it('hands out one prepared statement per SQL text, and the results stay right', () => {
    const db = withStatementCache(new SQLite(':memory:'));
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
    const insert = db.prepare('INSERT INTO t (id, name) VALUES (?, ?)');
    expect(db.prepare('INSERT INTO t (id, name) VALUES (?, ?)')).toBe(insert);
    insert.run(1, 'one');
    insert.run(2, 'two');
    expect(db.prepare('SELECT name FROM t WHERE id = ?').get(2)).toEqual({ name: 'two' });
    expect(db.prepare('SELECT name FROM t WHERE id = ?').get(1)).toEqual({ name: 'one' });
  });

  it('keeps at most 512 statements, dropping the least recently used', () => {
    const db = withStatementCache(new SQLite(':memory:'));
    const first = db.prepare('SELECT 0');
    const one = db.prepare('SELECT 1');
    const two = db.prepare('SELECT 2');
    for (let i = 3; i <= 511; i++) db.prepare(`SELECT ${i}`);
    expect(db.prepare('SELECT 0')).toBe(first); // used again: now the most recent
    db.prepare('SELECT 512'); // a 513th text evicts SELECT 1, the least recently used
    expect(db.prepare('SELECT 0')).toBe(first);
    expect(db.prepare('SELECT 2')).toBe(two);
    expect(db.prepare('SELECT 1')).not.toBe(one); // prepared afresh
  });

  it('leaves the rest of the database object as it was', () => {
    const raw = new SQLite(':memory:');
    const db = withStatementCache(raw);
    expect(db.pragma('journal_mode', { simple: true })).toBe('memory');
    expect(db.open).toBe(true);
    db.close();
    expect(raw.open).toBe(false);
  });
});
