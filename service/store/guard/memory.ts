import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { MemoryQuota } from './memory-quota.ts';
import { coverSecond, FutureSeconds, openSavedGuard, saveGuardAtClose, type SavedGuard } from './memory-saved.ts';
import { keyedNonceHash } from './nonce-hash.ts';
import { purgeDays } from './purge.ts';
import { FLUSH_INTERVAL_MS, NONCE_KEEP_SECONDS, type Admission, type NonceClaim, type RequestGuard } from './types.ts';

/**
 * The SQLite guard. One process owns the file, so nonces live in memory only (keyed 64-bit hashes
 * in per-10-second typed-array sets, store/guard/nonce-store.ts) and go to disk once, at a clean
 * close; day counts are saved about once a second. After an unclean stop (`meta.guard_running`
 * still 1) the lost nonces cannot be told from fresh ones, so requests signed up to the last
 * second the stopped process accepted one in, or at a second it accepted ahead of its clock, are
 * refused as stale (the client re-signs). Nothing here grows with the request rate × time.
 */
export async function openMemoryGuard(kysely: Kysely<Database>): Promise<RequestGuard> {
  const saved = await openSavedGuard(kysely);
  const state = new GuardState(kysely, saved, await FutureSeconds.load(kysely), new MemoryQuota(kysely));
  const flush = async () => {
    const now = state.clock();
    await state.quota.save(now);
    await purgeDays(kysely, now);
    await state.future.purge(now - NONCE_KEEP_SECONDS);
  };
  let flushing: Promise<void> | undefined;
  const flushOnce = () => (flushing ??= flush().finally(() => (flushing = undefined)));
  const timer = setInterval(() => void flushOnce().catch(() => undefined), FLUSH_INTERVAL_MS);
  timer.unref();
  let closed = false;
  return {
    admit: (claim, perSecond, now) => state.admit(claim, perSecond, now),
    charge: (key, perSecond, now) => state.quota.charge(key, perSecond, now),
    count: (key, window) => state.quota.count(key, window),
    flush: flushOnce,
    held: () => ({ nonces: saved.nonces.size, bytes: saved.nonces.bytes }),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await flushOnce();
      await saveGuardAtClose(kysely, saved, state.future.ownSeconds);
    },
  };
}

class GuardState {
  /** The newest request clock seen: what old nonces and seconds are forgotten by. */
  private latest = 0;
  private readonly covering = new Map<number, Promise<void>>();

  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly saved: SavedGuard,
    readonly future: FutureSeconds,
    readonly quota: MemoryQuota,
  ) {}

  async admit(claim: NonceClaim, perSecond: number, now: number): Promise<Admission> {
    const t = claim.timestamp;
    if ((this.saved.refuseThrough !== undefined && t <= this.saved.refuseThrough) || this.future.refuses(t))
      return { kind: 'stale' };
    if (now > this.latest) {
      this.latest = now;
      this.saved.nonces.forgetBefore(now - NONCE_KEEP_SECONDS);
    }
    if (!this.saved.nonces.claim(keyedNonceHash(this.saved.secret, claim), t)) return { kind: 'replay' };
    const covered = coverSecond(this.kysely, this.saved, this.covering, now);
    if (covered) await covered;
    if (t > now) await this.future.record(t);
    return { kind: 'fresh', charge: await this.quota.charge(claim.consumerKey, perSecond, now) };
  }

  /** The service's clock as requests bring it (tests move it), the wall clock before the first. */
  clock(): number {
    return this.latest || Math.floor(Date.now() / 1000);
  }
}
