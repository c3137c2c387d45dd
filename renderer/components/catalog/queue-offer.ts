import type { Queue, QueueKind, TitleState, TitleSummary } from '../../../shared/models.ts';
import { queuesFor, standingIn, type QueueStanding } from './queue-state.ts';

/**
 * The one queue action a title card offers: the title panel's standings (queue-state.ts) reduced
 * to the first that applies, instant queue before disc queue.
 */
export type QueueOffer =
  /** Addable: `save` when it goes to the queue's saved titles (it does not stream yet). */
  | { kind: 'add'; queue: QueueKind; save: boolean }
  /** Already in that queue (or saved in it). */
  | { kind: 'has'; queue: QueueKind; standing: Extract<QueueStanding, { kind: 'in-queue' | 'saved' }> }
  | { kind: 'at-home' }
  /** Not offered for either queue (the service offers no Add). */
  | { kind: 'none' }
  /** The title's states are still being asked for. */
  | { kind: 'unknown' };

export interface OfferContext {
  queues: Partial<Record<QueueKind, Queue>>;
  /** The service's states of the title; undefined while they load. */
  states: TitleState | undefined;
  /** Whether the subscriber can stream (then an instant Add without Play means "not yet": a save). */
  canStream: boolean;
}

export function queueOffer(
  title: Pick<TitleSummary, 'ref' | 'formats'>,
  { queues, states, canStream }: OfferContext,
): QueueOffer {
  if (!states) return { kind: 'unknown' };
  const kinds = queuesFor(title);
  const standings = kinds.map((queue) => ({ queue, standing: standingIn(title.ref, queues[queue], states[queue]) }));
  for (const { queue, standing } of standings) {
    if (standing.kind === 'in-queue' || standing.kind === 'saved') return { kind: 'has', queue, standing };
  }
  for (const { queue, standing } of standings) {
    if (standing.kind !== 'add') continue;
    const save = queue === 'instant' && canStream && !has(states.instant, 'Play');
    return { kind: 'add', queue, save };
  }
  return standings.some((s) => s.standing.kind === 'at-home') ? { kind: 'at-home' } : { kind: 'none' };
}

const QUEUE_WORDS: Record<QueueKind, string> = { instant: 'queue', disc: 'disc queue' };

/** The offer's visible words: "Add to disc queue", "Save for later", "In queue ✓"… */
export function offerWords(offer: QueueOffer): string {
  switch (offer.kind) {
    case 'add':
      return offer.save ? 'Save for later' : `Add to ${QUEUE_WORDS[offer.queue]}`;
    case 'has':
      return offer.standing.kind === 'saved'
        ? `Saved in ${QUEUE_WORDS[offer.queue]} ✓`
        : `In ${QUEUE_WORDS[offer.queue]} ✓`;
    case 'at-home':
      return 'At home';
    case 'none':
      return 'Not offered for your queues';
    case 'unknown':
      return 'Add to queue';
  }
}

function has(states: readonly string[], state: string): boolean {
  return states.some((s) => s.toLowerCase() === state.toLowerCase());
}
