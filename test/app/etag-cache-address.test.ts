import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openEtagCache } from '../../electron/core/transport/etag-cache.ts';
import { mapRefToBase } from '../../shared/protocol/base-url.ts';

/**
 * The ETag cache survives a change of address of the same service (the embedded service on
 * another port): an entry kept under the old address is found for the new one, its key and the
 * ids in its body moved, never dropped; another service's entries and addresses stay as they are.
 */
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'marquee-etag-address-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const OLD = 'http://127.0.0.1:4100';
const NEW = 'http://127.0.0.1:4200';
const body = (base: string) =>
  `<queue><item><id>${base}/users/u1/queues/instant/available/7</id><link href="${base}/catalog/titles/movies/7"/></item></queue>`;

it('finds an entry kept at the old address, moved onto the new one, and keeps it moved across a restart', async () => {
  const before = openEtagCache({ dir }).forUser('embedded:u1');
  await before.set(`${OLD}/users/u1/queues/instant?max_results=500`, '"q1"', body(OLD), { 'content-type': 'text/xml' });

  const addresses = (ns: string) => (ns.startsWith('embedded:') ? { current: NEW, former: [OLD] } : null);
  const after = openEtagCache({ dir, addresses }).forUser('embedded:u1');
  expect(await after.get(`${NEW}/users/u1/queues/instant?max_results=500`)).toEqual({
    etag: '"q1"',
    body: body(NEW),
    headers: { 'content-type': 'text/xml' },
  });
  // Moved, not copied: one entry file, under the new key.
  const [ns] = readdirSync(dir);
  expect(readdirSync(join(dir, ns!))).toHaveLength(1);
  expect(await after.get(`${OLD}/users/u1/queues/instant?max_results=500`)).toBeUndefined();

  const restarted = openEtagCache({ dir, addresses }).forUser('embedded:u1');
  expect((await restarted.get(`${NEW}/users/u1/queues/instant?max_results=500`))?.body).toBe(body(NEW));
});

it('leaves a URL of another service, and a namespace with no former address, as they are', async () => {
  await openEtagCache({ dir }).forUser('other:u1').set(`${OLD}/catalog/titles/movies/7`, '"t"', body(OLD));
  const cache = openEtagCache({ dir, addresses: () => null }).forUser('other:u1');
  expect(await cache.get(`${NEW}/catalog/titles/movies/7`)).toBeUndefined();
  expect((await cache.get(`${OLD}/catalog/titles/movies/7`))?.body).toBe(body(OLD));
});

it('maps a ref only from a former base of the same service, by whole address', () => {
  expect(mapRefToBase(`${OLD}/catalog/titles/movies/7`, [OLD], NEW)).toBe(`${NEW}/catalog/titles/movies/7`);
  expect(mapRefToBase(`${NEW}/catalog/titles/movies/7`, [OLD], NEW)).toBe(`${NEW}/catalog/titles/movies/7`);
  // A port that merely starts with the old one is another address.
  expect(mapRefToBase(`${OLD}1/catalog/titles/movies/7`, [OLD], NEW)).toBe(`${OLD}1/catalog/titles/movies/7`);
  expect(mapRefToBase('https://elsewhere.example/catalog/titles/movies/7', [OLD], NEW)).toBe(
    'https://elsewhere.example/catalog/titles/movies/7',
  );
  expect(mapRefToBase(`${OLD}/api/catalog/titles/1`, [`${OLD}/api/`], `${NEW}/api`)).toBe(
    `${NEW}/api/catalog/titles/1`,
  );
});
