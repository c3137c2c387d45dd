/** The next batch taken out of its owner's waiting store, as a send that answers its own callers and never rejects; undefined when nothing waits. */
export type TakeBatch = () => (() => Promise<void>) | undefined;

/**
 * The event-loop mechanics the store's batchers share (guard/pg-batcher.ts, read-batcher.ts): work
 * queued in one turn of the event loop is sent on the next, at most `maxInFlight` batches out at
 * once, and what arrives meanwhile waits for one to come back. The owner keeps what waits, how it
 * is split into batches and how a batch's callers are answered.
 */
export class BatchPump {
  private inFlight = 0;
  private scheduled = false;
  private idle: (() => void) | undefined;

  constructor(
    private readonly maxInFlight: number,
    private readonly take: TakeBatch,
  ) {}

  /** Call after queuing work: it is sent on the next turn of the event loop. */
  wake(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  /** Resolves once no batch is out and nothing waits (`nothingWaiting`: the owner's store is empty). */
  settled(nothingWaiting: boolean): Promise<void> {
    if (this.inFlight === 0 && nothingWaiting) return Promise.resolve();
    return new Promise((resolve) => (this.idle = resolve));
  }

  private drain(): void {
    while (this.inFlight < this.maxInFlight) {
      const send = this.take();
      if (!send) break;
      void this.sendOne(send);
    }
    // The loop ends with none out only when `take` found nothing waiting.
    if (this.inFlight === 0) this.idle?.();
  }

  private async sendOne(send: () => Promise<void>): Promise<void> {
    this.inFlight++;
    try {
      await send();
    } finally {
      this.inFlight--;
      this.drain();
    }
  }
}
