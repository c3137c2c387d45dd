import type { QueueKind } from '../../../shared/models.ts';

/** What the live room needs of the queue room (compose.ts wires the queue sync). */
export interface LiveQueues {
  /** The etag of the queue the core knows now (its own writes included), or undefined when never read. */
  knownEtag(kind: QueueKind): string | undefined;
  /** Resolves when the core's own queue writes in flight have settled. */
  settled(): Promise<void>;
  /** Reads the queue again (its ETag revalidated); the queue room tells the app it changed. */
  read(kind: QueueKind): Promise<unknown>;
}

/**
 * Reads a queue again for an event (`etag` undefined: on reconnecting) unless the core's own writes
 * (and the reads it made) already hold that version. True when the read found another device's change.
 */
export async function readIfNews(queues: LiveQueues, kind: QueueKind, etag: string | undefined): Promise<boolean> {
  // The event of the app's own write can beat the write's answer: wait for that answer first.
  await queues.settled();
  const known = queues.knownEtag(kind);
  if (known === undefined || (etag !== undefined && holds(known, etag))) return false;
  await queues.read(kind);
  return queues.knownEtag(kind) !== known;
}

/** A queue's etag is its version (docs/API.md): a known version at or past the event's already shows it. */
export function holds(known: string, event: string): boolean {
  if (known === event) return true;
  const [k, e] = [versionOf(known), versionOf(event)];
  return k !== undefined && e !== undefined && k >= e;
}

function versionOf(etag: string): number | undefined {
  return /^\d+$/.test(etag) ? Number(etag) : undefined;
}
