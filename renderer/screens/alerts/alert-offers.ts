import { titlePath, type Alert } from '../../../shared/alerts.ts';
import type { Queue, QueueItem, TitleState } from '../../../shared/models.ts';

/**
 * What an alert offers, decided from what is true now (the queue and the title's states in the
 * query cache), never from the alert's snapshot: Play only when the title streams now, Move to
 * top only while it is in the available part of its queue (and not already first), Remove only
 * while it is queued. Titles are matched by path: an alert may have been told at another address.
 */
export interface AlertFacts {
  /** The alert's queue as the cache holds it (undefined: not read yet). */
  queue: Queue | undefined;
  /** The title's states from the service (undefined: not known yet). */
  state: TitleState | undefined;
  /** false: the catalog answered that it no longer has the title (asked only for titles told gone). */
  inCatalog?: boolean | undefined;
}

export interface AlertOffers {
  /** The title's entry in the alert's queue: null when it is not in it, undefined while unknown. */
  entry: QueueItem | null | undefined;
  play: boolean;
  top: boolean;
  remove: boolean;
}

export function entryOf(queue: Queue | undefined, ref: string): QueueItem | null | undefined {
  if (!queue) return undefined;
  const path = titlePath(ref);
  return queue.items.find((item) => titlePath(item.ref) === path) ?? null;
}

export function alertOffers(alert: Alert, facts: AlertFacts): AlertOffers {
  const entry = entryOf(facts.queue, alert.ref);
  const streams = facts.state?.instant.some((s) => s.toLowerCase() === 'play') ?? false;
  return {
    entry,
    play: alert.queue === 'instant' && alert.kind !== 'gone' && streams,
    top: alert.kind !== 'gone' && !!entry && entry.position !== null && entry.position > 1,
    remove: alert.kind === 'gone' && !!entry,
  };
}

const QUEUE_NAMES = { instant: 'Instant queue', disc: 'Disc queue' } as const;

/** The line under an alert whose title is no longer where the alert found it. */
export function standingWords(
  alert: Alert,
  offers: AlertOffers,
  removedHere: boolean,
  inCatalog?: boolean,
): string | null {
  if (inCatalog === false) return `${alert.title} is no longer in the catalog.`;
  if (removedHere) return `Removed from your ${QUEUE_NAMES[alert.queue]}.`;
  if (offers.entry === null) return `No longer in your ${QUEUE_NAMES[alert.queue]}.`;
  return null;
}
