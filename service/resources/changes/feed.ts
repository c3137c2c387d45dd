import type { Db } from '../../store/db.ts';
import { changesAfter, changesNumbered, changeSpan } from '../../store/changes/read.ts';
import type { ChangeListener } from '../../store/changes/listen.ts';
import { commitMark } from '../../store/changes/commits.ts';
import type { Change } from '../../model/change.ts';

/** Rows read at once; more waiting are read straight after. */
const BATCH = 1_000;
/**
 * On PostgreSQL a transaction may commit a lower number after a higher one was read: a number
 * skipped is looked for again this long. A larger jump is the sequence's, not a transaction's.
 */
const HOLE_MS = 10_000;
const MAX_HOLES = 1_000;

/**
 * A node's reader of the change table: from the newest row when it starts, each row once, in
 * order, to `deliver`. Woken by PostgreSQL's NOTIFY (any node's change), by a write on this node,
 * and by the hub's slow poll (another process on SQLite, a lost notification).
 */
export class ChangeFeed {
  /** The highest number delivered. */
  last = 0;
  private readonly holes = new Map<number, number>();
  /** The read under way, if any (it reads again before resolving when woken meanwhile). */
  private reading: Promise<void> | undefined;
  /** Callers of `catchUp` waiting for a read that begins after them. */
  private catchingUp: (() => void)[] = [];
  private again = false;
  private started: Promise<void> | undefined;
  private listener: ChangeListener | undefined;
  private stopped = false;
  /** The store's commit mark before the last poll's read (SQLite); undefined: read at the next poll. */
  private polledAt: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly deliver: (changes: Change[]) => Promise<void>,
  ) {}

  /** Reads where the table ends and, on PostgreSQL, starts listening; once. */
  start(): Promise<void> {
    return (this.started ??= this.begin());
  }

  private async begin(): Promise<void> {
    this.last = (await changeSpan(this.db)).newest;
    if (this.db.listenForChanges) this.listener = await this.db.listenForChanges(() => this.wake());
    if (this.stopped) await this.listener?.close();
  }

  wake(): void {
    if (!this.started || this.stopped) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.readAll();
  }

  /**
   * Resolves once a read begun after this call has reached the table's end (or the store failed):
   * not once reading stops, which steady writes elsewhere could put off for ever.
   */
  async catchUp(): Promise<void> {
    await this.start();
    if (this.stopped) return;
    const done = new Promise<void>((resolve) => this.catchingUp.push(resolve));
    this.wake();
    await done;
  }

  /**
   * The hub's slow poll: on SQLite the table is read only when something was committed since the
   * last poll (a cheap question), so an idle node reads nothing; on PostgreSQL it is read each time.
   */
  async poll(): Promise<void> {
    if (!this.started || this.stopped) return;
    const mark = await commitMark(this.db).catch(() => undefined);
    if (mark !== undefined && mark === this.polledAt) return;
    this.polledAt = mark;
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.listener?.close();
  }

  private async readAll(): Promise<void> {
    try {
      await this.started;
      do {
        this.again = false;
        const waiting = this.catchingUp.splice(0);
        const atEnd = await this.readOnce();
        if (atEnd) for (const resolve of waiting) resolve();
        else this.catchingUp.unshift(...waiting);
      } while (this.again && !this.stopped);
    } catch {
      // The store is unreachable for now: the next wake or poll reads again from the same place.
      this.polledAt = undefined;
    } finally {
      this.reading = undefined;
      for (const resolve of this.catchingUp.splice(0)) resolve();
    }
  }

  /** One batch; answers whether it reached the table's end. */
  private async readOnce(): Promise<boolean> {
    const late = this.holes.size > 0 ? await changesNumbered(this.db, [...this.holes.keys()]) : [];
    const rows = await changesAfter(this.db, this.last, BATCH);
    const fresh: Change[] = [];
    const now = Date.now();
    for (const row of late) if (this.holes.delete(row.seq)) fresh.push(row);
    for (const row of rows) {
      const skipped = row.seq - this.last - 1;
      if (skipped > 0 && skipped + this.holes.size <= MAX_HOLES)
        for (let s = this.last + 1; s < row.seq; s++) this.holes.set(s, now + HOLE_MS);
      this.last = row.seq;
      fresh.push(row);
    }
    for (const [seq, until] of this.holes) if (until <= now) this.holes.delete(seq);
    if (rows.length === BATCH) this.again = true;
    if (fresh.length > 0) await this.deliver(fresh);
    return rows.length < BATCH;
  }
}
