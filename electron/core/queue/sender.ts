import type { Queue, QueueKind, QueueProgress } from '../../../shared/models.ts';
import { QUEUE_LIMIT, SubCode } from '../../../shared/protocol/index.ts';
import type { Client } from '../client/index.ts';
import { kindOf } from '../errors.ts';
import { BulkRun, runBulk, type BulkOutcome } from './bulk.ts';
import { conflict, PAST, planIntent, quoted, type Step } from './intents.ts';
import type { KnownQueues } from './known.ts';
import type { QueueIntent } from './outbox.ts';
import { ServiceError } from '../types.ts';

/**
 * Sends one intent: planned against the queue known (read first when none is), written with its
 * etag (If-Match); on a 412, the queue is read again, the intent rebased onto it and sent again,
 * up to MAX_ATTEMPTS times. An intent that no longer applies is a conflict in words.
 */

export type SenderClient = Pick<
  Client,
  'queue' | 'queueAdd' | 'queueMove' | 'queueRemove' | 'queueReplace' | 'bulkReplaceSupport'
>;

export interface Sent {
  /** The queue after the intent, read from the service. */
  queue: Queue;
  /** True when a 412 made it rebase onto another device's change before it applied. */
  rebased: boolean;
  /** A replace the user stopped part-way (steps made of those planned): the queue shows the steps made. */
  cancelled?: { done: number; total: number };
}

export const MAX_ATTEMPTS = 3;

export class IntentSender {
  /** Replaces under way, by queue: cancel() stops them after the current step. */
  private readonly bulk = new Map<QueueKind, BulkRun>();

  constructor(
    private readonly client: SenderClient,
    private readonly known: KnownQueues,
    private readonly account: () => string | null,
    private readonly progress: (progress: QueueProgress) => void,
  ) {}

  /** Stops the replace under way in `kind` after its current step; false when none is running. */
  cancel(kind: QueueKind): boolean {
    const run = this.bulk.get(kind);
    if (run) run.cancelled = true;
    return run !== undefined;
  }

  async send(intent: QueueIntent, acct: string): Promise<Sent> {
    const method = this.client.bulkReplaceSupport() === false ? 'moves' : 'replace';
    const run = intent.op === 'replace' ? new BulkRun(intent.kind, this.progress, method) : undefined;
    if (run) this.bulk.set(intent.kind, run);
    try {
      return await this.attempt(intent, acct, run);
    } finally {
      if (run) {
        run.finish();
        this.bulk.delete(intent.kind);
      }
    }
  }

  private async attempt(intent: QueueIntent, acct: string, run: BulkRun | undefined): Promise<Sent> {
    let queue = this.known.get(intent.kind, acct);
    let fresh = queue === undefined;
    queue ??= await this.fetch(intent.kind, acct);
    for (let attempt = 1; ; attempt++) {
      let step = planIntent(intent, queue, this.client);
      if ((step.type === 'done' || step.type === 'conflict') && !fresh) {
        queue = await this.fetch(intent.kind, acct); // the queue known may be old: judge on a fresh one
        fresh = true;
        step = planIntent(intent, queue, this.client);
      }
      if (step.type === 'done') return { queue, rebased: false };
      if (step.type === 'conflict') throw conflict(step.message);
      try {
        const outcome = await this.write(step, queue, run);
        const after = await this.fetch(intent.kind, acct);
        if (outcome === 'cancelled' && run)
          return { queue: after, rebased: attempt > 1, cancelled: { done: run.done, total: run.total } };
        return { queue: after, rebased: attempt > 1 };
      } catch (error) {
        const settled = await this.settledBy(error, intent, acct);
        if (settled) return { queue: settled, rebased: false };
        if (kindOf(error) !== 'conflict') {
          if (run && kindOf(error) !== 'offline') await this.fetch(intent.kind, acct).catch(() => undefined); // show the steps made
          throw error;
        }
        if (attempt >= MAX_ATTEMPTS) throw keptChanging(intent);
        queue = await this.fetch(intent.kind, acct);
        fresh = true;
      }
    }
  }

  private async write(
    step: Exclude<Step, { type: 'done' | 'conflict' }>,
    queue: Queue,
    run: BulkRun | undefined,
  ): Promise<BulkOutcome> {
    if (step.type === 'bulk') return runBulk(this.client, run!, queue, step.order);
    await step.run(queue.etag);
    return 'applied';
  }

  /** A refusal that means the intent is already so: the queue now. Another refusal in words: thrown. */
  private async settledBy(error: unknown, intent: QueueIntent, acct: string): Promise<Queue | undefined> {
    const e = error instanceof ServiceError ? error.appError : undefined;
    if (intent.op === 'replace') return undefined; // a step's refusal: rebased and replanned like any 412
    if (e?.status === 412 && e.subCode === SubCode.alreadyInQueue) return this.fetch(intent.kind, acct);
    if (e?.status === 404 && e.subCode === SubCode.titleNotInQueue && intent.op === 'remove')
      return this.fetch(intent.kind, acct);
    if (e?.subCode === SubCode.titleSaved)
      throw conflict(`${quoted(intent.name)} is saved until it is released, so it cannot be moved.`);
    return undefined;
  }

  /** A full read while sending: remembered quietly (the replayer announces once the intent is settled). */
  private async fetch(kind: QueueKind, acct: string): Promise<Queue> {
    const queue = await this.client.queue(kind, { max: QUEUE_LIMIT });
    if (this.account() === acct) this.known.remember(queue, acct, false);
    return queue;
  }
}

function keptChanging(intent: QueueIntent): ServiceError {
  const what =
    intent.op === 'replace'
      ? 'your change could not be made'
      : `${quoted(intent.name).replace(/^The/, 'the')} could not be ${PAST[intent.op]}`;
  return conflict(`Your ${intent.kind} queue kept changing on another device, so ${what}. Try again.`);
}
