import type { Queue, QueueKind, QueueProgress } from '../../../shared/models.ts';
import { planSteps, type BulkStep } from '../../../shared/pure/queue-plan.ts';
import { isUnsupported, type Client } from '../client/index.ts';

/**
 * A replace on the wire: one atomic PUT when the service has bulk replace, else the planner's
 * single edits one at a time, each conditional on the etag the last one answered, with a
 * 'queue.progress' event after each and a stop between steps when the user cancels.
 *
 * Detection: the PUT is tried unless this service is known to lack it; a 405, a 501 or a 404
 * without a sub_code (client/queue.ts `isUnsupported`) means it has none, and the client keeps
 * that answer per service base URL (so per profile) for the rest of the session.
 */

export type BulkClient = Pick<Client, 'queueReplace' | 'queueAdd' | 'queueMove' | 'queueRemove' | 'bulkReplaceSupport'>;

/** One queue.replace under way: its progress survives the rebases of a 412. */
export class BulkRun {
  done = 0;
  total = 0;
  cancelled = false;
  private finished = false;

  constructor(
    readonly kind: QueueKind,
    private readonly report: (progress: QueueProgress) => void,
    /** The way it is expected to go (what the service is known to offer); set by the way it went. */
    public method: QueueProgress['method'],
  ) {}

  step(): void {
    this.done++;
    this.emit(this.done >= this.total);
  }

  /** The last event (once): after the last step, a cancel, a failure or nothing to do. */
  finish(): void {
    if (!this.finished) this.emit(true);
  }

  private emit(finished: boolean): void {
    this.finished = finished;
    this.report({ kind: this.kind, done: this.done, total: this.total, method: this.method, finished });
  }
}

export type BulkOutcome = 'applied' | 'cancelled';

/**
 * Makes the available part of `queue` exactly `order`. Failures (a 412 included) are thrown as
 * they come: the caller refetches, rebases and calls again with the same run.
 */
export async function runBulk(client: BulkClient, run: BulkRun, queue: Queue, order: string[]): Promise<BulkOutcome> {
  // A PUT names at least one title: emptying the available part is done by removes.
  if (order.length > 0 && client.bulkReplaceSupport() !== false && (await replaceAtOnce(client, run, queue, order)))
    return 'applied';
  run.method = 'moves';
  const steps = planSteps(queue.items, order);
  run.total = run.done + steps.length;
  let etag = queue.etag;
  for (const step of steps) {
    if (run.cancelled) return 'cancelled';
    etag = await sendStep(client, queue.kind, step, etag);
    run.step();
  }
  return 'applied';
}

/** The PUT; false when the service turns out to have none (the client remembers that). */
async function replaceAtOnce(client: BulkClient, run: BulkRun, queue: Queue, order: string[]): Promise<boolean> {
  try {
    await client.queueReplace(queue.kind, order, queue.etag);
  } catch (error) {
    if (isUnsupported(error)) return false;
    throw error;
  }
  run.method = 'replace';
  run.total = 1;
  run.done = 0;
  run.step();
  return true;
}

/** One single edit of the fallback; resolves with the queue's etag after it. */
async function sendStep(client: BulkClient, kind: QueueKind, step: BulkStep, etag: string): Promise<string> {
  switch (step.op) {
    case 'remove':
      return (await client.queueRemove(step.itemRef, etag)).etag;
    case 'add':
      return (await client.queueAdd(kind, step.ref, etag, { position: step.position })).etag;
    case 'move':
      return (await client.queueMove(kind, step.ref, step.position, etag)).etag;
  }
}
