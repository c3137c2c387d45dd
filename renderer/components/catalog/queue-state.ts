import type { Queue, QueueKind, TitleSummary } from '../../../shared/models.ts';

/** Which queues a title can go in, from its formats (instant; DVD or Blu-ray for the disc queue). */
export function queuesFor(title: Pick<TitleSummary, 'formats'>): QueueKind[] {
  const kinds: QueueKind[] = [];
  if (title.formats.includes('instant')) kinds.push('instant');
  if (title.formats.some((f) => f === 'DVD' || f === 'Blu-ray')) kinds.push('disc');
  return kinds;
}

/** Where a title stands in one queue, as its primary action shows it. */
export type QueueStanding =
  | { kind: 'in-queue'; position: number }
  | { kind: 'saved' }
  | { kind: 'at-home' }
  | { kind: 'add' }
  /** Neither in the queue nor addable (the service offers no Add for it). */
  | { kind: 'unavailable' };

/**
 * The title's standing in a queue: the queue in the cache wins (a `queue.changed` event or an edit
 * puts it there, so the answer follows every change at once); the service's title states fill in
 * what the queue cannot say (At Home, whether Add is offered).
 */
export function standingIn(
  ref: string,
  queue: Queue | undefined,
  states: readonly string[] | undefined,
): QueueStanding {
  const has = (s: string) => states?.some((x) => x.toLowerCase() === s.toLowerCase()) ?? false;
  if (has('At Home')) return { kind: 'at-home' };
  if (queue) {
    const item = queue.items.find((i) => i.ref === ref);
    if (item) return item.position === null ? { kind: 'saved' } : { kind: 'in-queue', position: item.position };
    if (queue.view === 'all') return states === undefined || has('Add') ? { kind: 'add' } : { kind: 'unavailable' };
  }
  if (has('In Queue')) return { kind: 'in-queue', position: 0 };
  if (has('Saved')) return { kind: 'saved' };
  if (states === undefined || has('Add')) return { kind: 'add' };
  return { kind: 'unavailable' };
}

/** "In queue · #12", "Saved", "At home", "Add to queue". */
export function standingWords(standing: QueueStanding, queueName: string): string {
  switch (standing.kind) {
    case 'in-queue':
      return standing.position > 0 ? `In ${queueName} · #${standing.position}` : `In ${queueName}`;
    case 'saved':
      return `Saved in ${queueName}`;
    case 'at-home':
      return 'At home';
    case 'add':
      return `Add to ${queueName}`;
    case 'unavailable':
      return `Not offered for the ${queueName}`;
  }
}
