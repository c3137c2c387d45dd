// `node --expose-gc --import tsx test/helpers/nonce-memory.ts N`: what N nonces cost a process, as
// the nonce store holds them (keyed hashes of real-looking claims spread over the window). Prints JSON.
import { randomBytes } from 'node:crypto';
import { keyedNonceHash } from '../../service/store/guard/nonce-hash.ts';
import { NonceStore } from '../../service/store/guard/nonce-store.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const count = Number(process.argv[2] ?? 100_000);
const WINDOW_SECONDS = 310;
const secret = randomBytes(16).toString('hex');
const consumerKey = randomBytes(12).toString('hex');
const token = randomBytes(12).toString('hex');
const t0 = 2_000_000_000;

const retained = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const before = retained();
const store = new NonceStore();
for (let i = 0; i < count; i++) {
  const timestamp = t0 + Math.floor((i * WINDOW_SECONDS) / count);
  const claim = { consumerKey, token, timestamp, nonce: randomBytes(16).toString('hex') };
  if (!store.claim(keyedNonceHash(secret, claim), timestamp)) throw new Error('a fresh nonce was taken for a replay');
}
const after = retained();
console.log(JSON.stringify({ nonces: store.size, storeBytes: store.bytes, processBytes: after - before }));
