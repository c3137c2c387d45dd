import { BatchPump } from './batch-pump.ts';

/** Batches in flight at once; reads arriving meanwhile wait and go together in the next one. */
const MAX_IN_FLIGHT = 2;
/** Keys one statement carries at most. */
const MAX_BATCH = 500;

/** Reads the rows of many keys in one statement; each row names its key (`keyOf`). */
export type BatchRead<Row> = (keys: string[]) => Promise<Row[]>;

interface Waiting<Row> {
  resolve(row: Row | undefined): void;
  reject(error: unknown): void;
}

/**
 * Reads by key made in one turn of the event loop (and those that arrive while MAX_IN_FLIGHT
 * batches are out) go to the database in one statement, and each caller gets its own key's row:
 * on PostgreSQL a statement is a round trip plus the driver's per-query JavaScript, which one
 * request a statement paid in full. Nothing is kept across batches: every read is sent after its
 * caller asked, so a row changed before then (a token revoked) is seen.
 */
export class ReadBatcher<Row> {
  private waiting = new Map<string, Array<Waiting<Row>>>();
  private readonly pump = new BatchPump(MAX_IN_FLIGHT, () => this.take());

  constructor(
    private readonly read: BatchRead<Row>,
    private readonly keyOf: (row: Row) => string,
  ) {}

  /** The row of `key` as the batch that carried it read it, or undefined when there is none. */
  get(key: string): Promise<Row | undefined> {
    return new Promise((resolve, reject) => {
      const callers = this.waiting.get(key);
      if (callers) callers.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      this.pump.wake();
    });
  }

  /** Up to MAX_BATCH waiting keys (the first asked), taken out of `waiting`. */
  private take(): (() => Promise<void>) | undefined {
    if (this.waiting.size === 0) return undefined;
    const batch = this.waiting;
    if (batch.size <= MAX_BATCH) this.waiting = new Map();
    else {
      const keys = [...batch.keys()].slice(MAX_BATCH);
      this.waiting = new Map(keys.map((k) => [k, batch.get(k)!]));
      for (const k of keys) batch.delete(k);
    }
    return () => this.send(batch);
  }

  private async send(batch: Map<string, Array<Waiting<Row>>>): Promise<void> {
    try {
      const rows = await this.read([...batch.keys()]);
      const byKey = new Map(rows.map((r) => [this.keyOf(r), r]));
      for (const [key, callers] of batch) for (const c of callers) c.resolve(byKey.get(key));
    } catch (error) {
      for (const callers of batch.values()) for (const c of callers) c.reject(error);
    }
  }
}
