import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entryFileName, openEtagCache } from '../../electron/core/transport/etag-cache.ts';

describe('etag cache', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-etag-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The one namespace directory under `dir`. */
  const nsDir = () => {
    const subdirs = readdirSync(dir);
    expect(subdirs).toHaveLength(1);
    return join(dir, subdirs[0]!);
  };

  it('stores, reads, deletes and clears entries, with headers, and survives a restart', async () => {
    const cache = openEtagCache({ dir }).forUser('default:u1');
    expect(await cache.get('http://h/a')).toBeUndefined();
    await cache.set('http://h/a', '"e1"', 'body é', { 'content-type': 'application/xml' });
    await cache.set('http://h/b', '"e2"', 'two');
    expect(await cache.get('http://h/a')).toEqual({
      etag: '"e1"',
      body: 'body é',
      headers: { 'content-type': 'application/xml' },
    });

    const again = openEtagCache({ dir }).forUser('default:u1');
    expect((await again.get('http://h/a'))?.body).toBe('body é');
    await again.set('http://h/a', '"e3"', 'newer');
    expect(await again.get('http://h/a')).toMatchObject({ etag: '"e3"', body: 'newer' });
    await again.delete('http://h/a');
    expect(await again.get('http://h/a')).toBeUndefined();
    await again.clear();
    expect(await again.get('http://h/b')).toBeUndefined();
    expect(readdirSync(nsDir())).toEqual([]);
  });

  it('keeps what it stores to this user of the machine: folders 0700, entries 0600', async () => {
    const cache = openEtagCache({ dir }).forUser('default:u1');
    await cache.set('http://h/a', '"e1"', '<queue/>');
    const folder = nsDir();
    const [entry] = readdirSync(folder);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(join(folder, entry!)).mode & 0o777).toBe(0o600);
  });

  it('keeps users apart', async () => {
    const store = openEtagCache({ dir });
    await store.forUser('p:alice').set('http://h/q', '"1"', 'alice');
    expect(await store.forUser('p:bob').get('http://h/q')).toBeUndefined();
    await store.forUser('p:bob').set('http://h/q', '"2"', 'bob');
    expect((await store.forUser('p:alice').get('http://h/q'))?.body).toBe('alice');
    await store.removeUser('p:alice');
    expect(await openEtagCache({ dir }).forUser('p:alice').get('http://h/q')).toBeUndefined();
    expect((await openEtagCache({ dir }).forUser('p:bob').get('http://h/q'))?.body).toBe('bob');
  });

  it('drops a torn or corrupt entry instead of serving it', async () => {
    const cache = openEtagCache({ dir }).forUser('u');
    const body = 'x'.repeat(1000);
    await cache.set('k1', '"1"', body);
    await cache.set('k2', '"2"', body);
    await cache.set('k3', '"3"', body);
    const file = (key: string) => join(nsDir(), entryFileName(key));
    const whole = readFileSync(file('k1'));
    writeFileSync(file('k1'), whole.subarray(0, whole.length - 10)); // torn: short body
    const flipped = Buffer.from(readFileSync(file('k2')));
    flipped[flipped.length - 1] = 'y'.charCodeAt(0); // same length, wrong checksum
    writeFileSync(file('k2'), flipped);
    writeFileSync(file('k3'), 'garbage'); // no header at all

    const fresh = openEtagCache({ dir }).forUser('u');
    for (const key of ['k1', 'k2', 'k3']) expect(await fresh.get(key)).toBeUndefined();
    expect(readdirSync(nsDir())).toEqual([]); // and deleted
    // The in-process instance drops them too.
    expect(await cache.get('k1')).toBeUndefined();
  });

  it('removes temp files a crash left behind', async () => {
    const cache = openEtagCache({ dir }).forUser('u');
    await cache.set('k', '"1"', 'v');
    writeFileSync(join(nsDir(), `${entryFileName('other')}.abc.tmp`), 'half');
    const fresh = openEtagCache({ dir }).forUser('u');
    expect((await fresh.get('k'))?.body).toBe('v');
    expect(readdirSync(nsDir())).toEqual([entryFileName('k')]);
  });

  it('bounds its size with least-recently-used eviction, also across a restart', async () => {
    const body = 'z'.repeat(1000);
    const cache = openEtagCache({ dir, maxBytes: 3500 }).forUser('u');
    await cache.set('a', '"a"', body);
    await cache.set('b', '"b"', body);
    await cache.set('c', '"c"', body);
    expect(await cache.get('a')).toBeDefined(); // a is now the most recent; b the least
    await cache.set('d', '"d"', body);
    expect(await cache.get('b')).toBeUndefined();
    for (const k of ['a', 'c', 'd']) expect(await cache.get(k)).toBeDefined();
    const total = readdirSync(nsDir()).reduce((n, f) => n + statSync(join(nsDir(), f)).size, 0);
    expect(total).toBeLessThanOrEqual(3500);

    // After a restart recency comes from file times: touch c last, then a new entry evicts a.
    await new Promise((r) => setTimeout(r, 20));
    expect(await cache.get('d')).toBeDefined();
    await new Promise((r) => setTimeout(r, 20));
    expect(await cache.get('c')).toBeDefined();
    const restarted = openEtagCache({ dir, maxBytes: 3500 }).forUser('u');
    await restarted.set('e', '"e"', body);
    expect(await restarted.get('a')).toBeUndefined();
    for (const k of ['c', 'd', 'e']) expect(await restarted.get(k)).toBeDefined();

    // A body larger than the whole bound is not kept (and replaces nothing stale).
    await restarted.set('c', '"c2"', 'w'.repeat(5000));
    expect(await restarted.get('c')).toBeUndefined();
  });
});
