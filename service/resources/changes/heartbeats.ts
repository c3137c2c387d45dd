import type { ChangeStream } from './stream.ts';

/** The comment a stream hears when nothing else is said: proxies and idle limits see bytes flow. */
const KEEP_ALIVE = ': keep-alive\n\n';
/** Ticks a heartbeat period is cut into; each tick writes to one slot's streams. */
export const HEARTBEAT_SLOTS = 15;

/**
 * The heartbeat of a node's streams, spread over its period: each stream sits in one of `HEARTBEAT_SLOTS`
 * slots (the emptiest when it opens) and a tick every period / `HEARTBEAT_SLOTS` writes to one slot in turn,
 * so 10,000 streams cost a turn of the event loop ≈ 670 writes, not 10,000. Every slot comes round
 * once a period, so a stream hears one within a period of opening and then once every period.
 */
export class Heartbeats {
  private readonly slots: Set<ChangeStream>[] = Array.from({ length: HEARTBEAT_SLOTS }, () => new Set());
  private count = 0;
  private next = 0;
  private dueAt = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly periodMs: number) {}

  add(stream: ChangeStream): void {
    emptiest(this.slots).add(stream);
    this.count += 1;
    if (!this.timer) {
      this.dueAt = Date.now();
      this.schedule();
    }
  }

  remove(stream: ChangeStream): void {
    if (!this.slots.some((slot) => slot.delete(stream))) return;
    this.count -= 1;
    if (this.count === 0) this.stopTicking();
  }

  /** Forgets every stream (the node is stopping). */
  close(): void {
    for (const slot of this.slots) slot.clear();
    this.count = 0;
    this.stopTicking();
  }

  private stopTicking(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Due times follow the first tick, not the last one's lateness, so late ticks do not stretch the period. */
  private schedule(): void {
    const tickMs = this.periodMs / HEARTBEAT_SLOTS;
    const now = Date.now();
    // After a long stall (a suspended machine) the ticks start again from now instead of catching up in a burst.
    this.dueAt = this.dueAt + tickMs < now - this.periodMs ? now : this.dueAt + tickMs;
    this.timer = setTimeout(() => this.tick(), Math.max(0, this.dueAt - now)).unref();
  }

  private tick(): void {
    for (const stream of this.slots[this.next]!) stream.write(KEEP_ALIVE);
    this.next = (this.next + 1) % HEARTBEAT_SLOTS;
    this.schedule();
  }
}

function emptiest(slots: Set<ChangeStream>[]): Set<ChangeStream> {
  return slots.reduce((least, slot) => (slot.size < least.size ? slot : least));
}
