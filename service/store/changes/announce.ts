import type { StatementRunner } from '../pg-prepared.ts';
import { CHANGES_CHANNEL } from './listen.ts';

/**
 * NOTIFY in a transaction of its own: it writes no table, so its commit waits for no WAL flush (on
 * a durable server it takes as long as `SELECT 1`, against ≈ 1.3 ms for a one-row INSERT), and it
 * holds the notify lock only for that moment. It only wakes listeners (they read the change table
 * by sequence, and poll it besides): a lost one delays a wake-up, never loses a change.
 */
const ANNOUNCE_SQL = `SELECT pg_notify('${CHANGES_CHANNEL}', '')`;

/**
 * Wakes every node's change feed after a change this node committed (queue writes: their triggers
 * record the change row but do not NOTIFY, see migrations/012-queue-changes-unserialised.ts).
 * PostgreSQL serialises committing transactions that NOTIFY (a global lock held through the commit's
 * WAL flush), so NOTIFY inside each durable write made writers of different queues commit one by
 * one. Announcements coalesce: one in flight, and at most one more for everything committed meanwhile.
 */
export class ChangeAnnouncer {
  private inFlight: Promise<void> | undefined;
  private again = false;

  constructor(private readonly run: StatementRunner) {}

  /** Call once a change has committed. */
  announce(): void {
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = this.send();
  }

  /** Resolves once no announcement is under way (at close). */
  async settled(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  private async send(): Promise<void> {
    try {
      await this.run(ANNOUNCE_SQL, []);
    } catch {
      // Unreachable store: the listeners' poll reads the change anyway.
    }
    if (this.again) {
      this.again = false;
      this.inFlight = this.send();
    } else this.inFlight = undefined;
  }
}
