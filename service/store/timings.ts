/** One statement's time, in seconds, told to whoever listens (the service's metrics). */
export type QueryListener = (seconds: number) => void;

/**
 * Where a store tells how long its statements take: Kysely's `log` and the prepared-statement
 * runners (pg-prepared.ts) call `record`. Held by the Db, so two stores in one process keep apart;
 * with nobody listening a statement costs one size check.
 */
export class QueryTimings {
  private readonly listeners = new Set<QueryListener>();

  /** Starts telling `listener`; the function returned stops it (an app closing). */
  listen(listener: QueryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listened(): boolean {
    return this.listeners.size > 0;
  }

  record(seconds: number): void {
    for (const listener of this.listeners) listener(seconds);
  }
}

/** A connection pool's state right now (PostgreSQL; SQLite has none). */
export interface PoolState {
  /** `main` (queries) or `guard` (nonce claims and quota charges). */
  pool: string;
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}
