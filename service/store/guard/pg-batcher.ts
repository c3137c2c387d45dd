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
  private inFlight = 0;
  private scheduled = false;
  private idle: (() => void) | undefined;
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
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.drain();
        });
      }
    });
  }

  /** Resolves once nothing is waiting or in flight (at close). */
  settled(): Promise<void> {
    if (this.inFlight === 0 && this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.idle = resolve));
  }

  private drain(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.waiting.size > 0) {
      const [now, queue] = this.waiting.entries().next().value!;
      const batch = queue.items.splice(0, MAX_BATCH);
      if (queue.items.length === 0) this.waiting.delete(now);
      void this.send(batch, now);
    }
    if (this.inFlight === 0 && this.waiting.size === 0) this.idle?.();
  }

  private async send(batch: Waiting[], now: number): Promise<void> {
    this.inFlight++;
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
    } finally {
      this.inFlight--;
      this.drain();
    }
  }
}
