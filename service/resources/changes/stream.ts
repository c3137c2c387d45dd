import type { ServerResponse } from 'node:http';

/** One open change stream: who holds it, and the response its events are written to. */
export class ChangeStream {
  /** Numbers already sent while it caught up (replay and live may both carry one). */
  private readonly sentWhileCatchingUp = new Set<number>();
  /** Events that arrived live while the replay was read, sent after it. */
  private held: string[] | null = [];
  private closed = false;

  constructor(
    readonly userId: string,
    readonly consumerKey: string,
    readonly token: string,
    private readonly res: ServerResponse,
    private readonly maxBufferedBytes: number,
  ) {}

  get isOpen(): boolean {
    return !this.closed && !this.res.destroyed;
  }

  /** An event: held while the stream catches up, else written once (a number already sent is skipped). */
  send(seq: number, text: string): void {
    if (this.held) {
      if (this.held.length >= HELD_MAX) return this.drop();
      this.held.push(`${seq}\n${text}`);
      return;
    }
    if (this.sentWhileCatchingUp.size > 0 && this.sentWhileCatchingUp.has(seq)) return;
    this.write(text);
  }

  /** An event of the replay, sent at once. */
  replay(seq: number, text: string): void {
    this.sentWhileCatchingUp.add(seq);
    this.write(text);
  }

  /** The replay is sent: the events held meanwhile follow, those the replay carried skipped. */
  caughtUp(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const entry of held) {
      const cut = entry.indexOf('\n');
      this.send(Number(entry.slice(0, cut)), entry.slice(cut + 1));
    }
    this.sentWhileCatchingUp.clear();
  }

  /** Text outside any event (a heartbeat comment, the retry hint). */
  write(text: string): void {
    if (!this.isOpen) return;
    this.res.write(text);
    // A client that stops reading is dropped, not buffered for without limit.
    if (this.res.writableLength > this.maxBufferedBytes) this.drop();
  }

  /** Ends the stream with a last event (a revoked token) or none. */
  end(lastWords?: string): void {
    if (!this.isOpen) return;
    this.closed = true;
    this.res.end(lastWords);
  }

  private drop(): void {
    this.closed = true;
    this.res.destroy();
  }
}

/** Events held while a stream reads its replay; more, and the client is too far behind: dropped. */
const HELD_MAX = 10_000;
