import { BatchPump } from '../batch-pump.ts';
import type { StatementRunner } from '../pg-prepared.ts';
import { dayWindows } from '../quota.ts';
import { claimBatch, type PgClaim } from './pg-claims.ts';
import type { Charge } from './types.ts';

/** Batches in flight at once: the guard's own connections (store/db.ts's GUARD_CONNECTIONS). */
const MAX_IN_FLIGHT = 2;
/** Claims one statement carries at most. */
const MAX_BATCH = 1000;

/** The claims of one request second not yet sent, and their nonces' digests (to spot a repeat). */
interface Queue {
  items: Waiting[];
  digests: Set<string>;
}

interface Waiting {
  claim: PgClaim;
  resolve(charge: Charge | null): void;
  reject(error: unknown): void;
}

/**
 * Group commit for the PostgreSQL guard: claims made in one turn of the event loop (and those that
 * arrive while MAX_IN_FLIGHT batches are out) go to the database in one statement, and each caller
 * gets its own answer. Batches are per request second (the quota window), so a batch never spans two.
 */
export class ClaimBatcher {
  private readonly waiting = new Map<number, Queue>();
  private readonly pump = new BatchPump(MAX_IN_FLIGHT, () => this.take());
  private readonly dayWindow = dayWindows();

  constructor(private readonly run: StatementRunner) {}

  /** The claim's charge once its batch committed, or null for a nonce already used. */
  submit(claim: PgClaim, now: number): Promise<Charge | null> {
    return new Promise((resolve, reject) => {
      let queue = this.waiting.get(now);
      if (!queue) this.waiting.set(now, (queue = { items: [], digests: new Set() }));
      if (claim.digest !== null) {
        // The same nonce twice in one batch: the second is a replay of the first.
        if (queue.digests.has(claim.digest)) return resolve(null);
        queue.digests.add(claim.digest);
      }
      queue.items.push({ claim, resolve, reject });
      this.pump.wake();
    });
  }

  /** Resolves once nothing is waiting or in flight (at close). */
  settled(): Promise<void> {
    return this.pump.settled(this.waiting.size === 0);
  }

  /** Up to MAX_BATCH claims of the oldest waiting second, taken out of `waiting`. */
  private take(): (() => Promise<void>) | undefined {
    const oldest = this.waiting.entries().next();
    if (oldest.done) return undefined;
    const [now, queue] = oldest.value;
    const batch = queue.items.splice(0, MAX_BATCH);
    if (queue.items.length === 0) this.waiting.delete(now);
    return () => this.send(batch, now);
  }

  private async send(batch: Waiting[], now: number): Promise<void> {
    try {
      const answers = await claimBatch(
        this.run,
        batch.map((w) => w.claim),
        now,
        this.dayWindow(now),
      );
      batch.forEach((w, i) => w.resolve(answers[i]!));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}
