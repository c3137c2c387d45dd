import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { keyedNonceHash } from '../../service/store/guard/nonce-hash.ts';
import { NonceSet } from '../../service/store/guard/nonce-set.ts';
import { BUCKET_SECONDS, NonceStore } from '../../service/store/guard/nonce-store.ts';
import { ROOT, TSX } from '../helpers/service-process.ts';

/** What a live nonce may cost at most: the bound docs/RELIABILITY.md states (a string-keyed Map entry cost ≈ 700). */
const BYTES_PER_NONCE = 32;
/** The same measured as the process sees it (heap and array buffers after a full GC): a little slack for the Map of sets. */
const PROCESS_BYTES_PER_NONCE = 40;

const claim = (timestamp: number, nonce: string) => ({ consumerKey: 'ck', token: 'tk', timestamp, nonce });

describe('the nonce store: keyed hashes in typed-array sets per 10 s of timestamps', () => {
  it('refuses a nonce seen before, in the same set or after the set grew', () => {
    const set = new NonceSet(16);
    const hashes = Array.from({ length: 5000 }, (_, i) => keyedNonceHash('s', claim(1, `n${i}`)));
    for (const h of hashes) expect(set.add(h.lo, h.hi)).toBe(true);
    for (const h of hashes) expect(set.add(h.lo, h.hi)).toBe(false);
    expect(set.size).toBe(5000);
    const copy = NonceSet.fromBuffer(set.toBuffer());
    expect(copy.size).toBe(5000);
    for (const h of hashes) expect(copy.add(h.lo, h.hi)).toBe(false);
  });

  it('tells claims apart by consumer, token, timestamp and nonce, and by secret', () => {
    const base = { consumerKey: 'ck', token: 'tk', timestamp: 100, nonce: 'n' };
    const variants = [
      base,
      { ...base, consumerKey: 'ck2' },
      { ...base, token: 'tk2' },
      { ...base, token: '' },
      { ...base, timestamp: 101 },
      { ...base, nonce: 'n2' },
    ];
    const store = new NonceStore();
    for (const v of variants) expect(store.claim(keyedNonceHash('secret', v), v.timestamp)).toBe(true);
    for (const v of variants) expect(store.claim(keyedNonceHash('secret', v), v.timestamp)).toBe(false);
    expect(keyedNonceHash('secret', base)).not.toEqual(keyedNonceHash('other secret', base));
  });

  it('drops whole sets once every timestamp in them is before the kept window, and only those', () => {
    const store = new NonceStore();
    for (let t = 1000; t < 1100; t++) store.claim(keyedNonceHash('s', claim(t, 'n')), t);
    expect(store.size).toBe(100);
    store.forgetBefore(1050);
    expect(store.size).toBe(50);
    // A nonce of a dropped set is not held any more (its timestamp is refused by the window instead).
    expect(store.claim(keyedNonceHash('s', claim(1000, 'n')), 1000)).toBe(true);
    expect(store.claim(keyedNonceHash('s', claim(1050, 'n')), 1050)).toBe(false);
    store.forgetBefore(1100 + BUCKET_SECONDS);
    expect(store.size).toBe(0);
    expect(store.bytes).toBe(0);
  });

  it(`holds 100,000 live nonces in at most ${BYTES_PER_NONCE} bytes each, by its own count and by the process's`, async () => {
    const store = new NonceStore();
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const timestamp = 2_000_000_000 + Math.floor((i * 310) / n);
      expect(store.claim(keyedNonceHash('k', claim(timestamp, randomBytes(8).toString('hex'))), timestamp)).toBe(true);
    }
    expect(store.size).toBe(n);
    expect(store.bytes / n).toBeLessThanOrEqual(BYTES_PER_NONCE);

    // The process's view: heap and array buffers after a full GC, in a child started with --expose-gc.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', TSX, 'test/helpers/nonce-memory.ts', String(n)],
      { cwd: ROOT },
    );
    const measured = JSON.parse(stdout) as { nonces: number; storeBytes: number; processBytes: number };
    console.log(
      `nonce store: ${n} nonces, ${(measured.storeBytes / n).toFixed(1)} B each by its arrays, ${(measured.processBytes / n).toFixed(1)} B each by the process`,
    );
    expect(measured.nonces).toBe(n);
    expect(measured.storeBytes / n).toBeLessThanOrEqual(BYTES_PER_NONCE);
    expect(measured.processBytes / n).toBeLessThanOrEqual(PROCESS_BYTES_PER_NONCE);
  }, 60_000);
});
