import type {
  ImportOutcome,
  ImportProgress,
  ImportSkip,
  Placement,
  RatingChange,
} from '../../../shared/import-export.ts';
import type { QueueKind, UserRating } from '../../../shared/models.ts';
import type { Client } from '../client/index.ts';
import type { QueueSync } from '../queue/index.ts';
import { availableOrder } from '../../../shared/pure/queue-order.ts';
import { QUEUE_LIMIT } from '../../../shared/protocol/queue.ts';
import { ServiceError } from '../types.ts';

/**
 * An import, once the person confirmed it: the titles that can be had now go into the available
 * part at the top or the bottom in one queue.replace (one PUT, or single moves with progress and
 * Cancel: the queue sync's own), titles still to come are added to the saved part, titles already
 * queued or not offered in the queue's formats are left out, then the ratings are set. What it did
 * is returned so the same change can be undone.
 */

/** Ratings asked for per request when reading the ones a title already has. */
const RATINGS_PER_READ = 100;

export interface ApplyRequest {
  kind: QueueKind;
  placement: 'top' | 'bottom';
  refs: string[];
  ratings: Array<{ ref: string; rating: UserRating }>;
}

export interface ApplyDeps {
  client: Pick<Client, 'ratings' | 'setRating'>;
  sync: Pick<QueueSync, 'read' | 'apply'>;
  /** Where a title can go in the queue, and its name. */
  placementOf(ref: string, kind: QueueKind): Promise<{ title: string; placement: Placement }>;
  progress(p: ImportProgress): void;
  /** True once the person pressed Cancel: nothing more is started. */
  cancelled(): boolean;
}

export async function applyImport(deps: ApplyDeps, req: ApplyRequest): Promise<ImportOutcome> {
  const { sync } = deps;
  const current = await sync.read(req.kind);
  const before = availableOrder(current.items);
  const queued = new Set(current.items.map((i) => i.ref));
  const wanted = [...new Set(req.refs)];
  const adding = wanted.filter((ref) => !queued.has(ref)).length;
  // Checked before anything is looked up or changed: every title chosen counts (a few may turn out not offered).
  if (current.items.length + adding > QUEUE_LIMIT) {
    const room = Math.max(0, QUEUE_LIMIT - current.items.length);
    throw new ServiceError({
      kind: 'invalid',
      message: `A queue holds at most ${QUEUE_LIMIT} titles: yours has ${current.items.length}, so choose at most ${room} to import (you chose ${adding}).`,
    });
  }
  const placed: string[] = [];
  const saved: string[] = [];
  const skipped: ImportSkip[] = [];
  for (const ref of wanted) {
    const { title, placement } = await deps.placementOf(ref, req.kind);
    if (queued.has(ref)) skipped.push({ ref, title, reason: 'queued' });
    else if (placement === 'now') placed.push(ref);
    else if (placement === 'later') saved.push(ref);
    else skipped.push({ ref, title, reason: 'unavailable' });
  }
  const after = req.placement === 'top' ? [...placed, ...before] : [...before, ...placed];
  let queue = current;
  if (placed.length > 0)
    queue = await sync.apply({
      op: 'replace',
      kind: req.kind,
      refs: after,
      base: before,
      name: placed.length === 1 ? '1 imported title' : `${placed.length} imported titles`,
    });
  const added = await addSaved(deps, req.kind, saved);
  if (added.length > 0) queue = await sync.read(req.kind);
  const rated = deps.cancelled() ? [] : await setRatings(deps, req.ratings);
  return { kind: req.kind, before, after, placed, saved: added, skipped, rated, cancelled: deps.cancelled(), queue };
}

/** Titles still to come, each added to the saved part; stops at a Cancel. */
async function addSaved(deps: ApplyDeps, kind: QueueKind, refs: readonly string[]): Promise<string[]> {
  const added: string[] = [];
  for (const ref of refs) {
    if (deps.cancelled()) break;
    await deps.sync.apply({ op: 'add', kind, ref });
    added.push(ref);
    deps.progress({ phase: 'saving', done: added.length, total: refs.length, finished: added.length === refs.length });
  }
  return added;
}

/** Sets each rating that differs from the title's own, keeping the one it had (for Undo); stops at a Cancel. */
async function setRatings(deps: ApplyDeps, wanted: ApplyRequest['ratings']): Promise<RatingChange[]> {
  const unique = [...new Map(wanted.map((r) => [r.ref, r.rating])).entries()];
  const had = new Map<string, UserRating | null>();
  for (let i = 0; i < unique.length; i += RATINGS_PER_READ) {
    for (const r of await deps.client.ratings(unique.slice(i, i + RATINGS_PER_READ).map(([ref]) => ref)))
      had.set(r.title.ref, r.userRating);
  }
  const changes = unique.filter(([ref, rating]) => had.get(ref) !== rating);
  const done: RatingChange[] = [];
  for (const [ref, rating] of changes) {
    if (deps.cancelled()) break;
    const before = had.get(ref) ?? null;
    await deps.client.setRating(ref, rating, { rated: before !== null });
    done.push({ ref, before, after: rating });
    deps.progress({
      phase: 'rating',
      done: done.length,
      total: changes.length,
      finished: done.length === changes.length,
    });
  }
  return done;
}

export interface UndoRequest {
  kind: QueueKind;
  before: string[];
  after: string[];
  saved: string[];
  rated: Array<{ ref: string; before: UserRating | null }>;
}

/**
 * Takes an import back: the available order returned to what it was (carried onto the queue as it
 * is now, so edits made since stay), the saved titles it added removed, the ratings it changed
 * set back (a title it rated first is unrated again).
 */
export async function undoImport(deps: Pick<ApplyDeps, 'client' | 'sync' | 'progress'>, req: UndoRequest) {
  const total = req.saved.length + req.rated.length + 1;
  let done = 0;
  const step = () => deps.progress({ phase: 'undoing', done: ++done, total, finished: done === total });
  await deps.sync.apply({ op: 'replace', kind: req.kind, refs: req.before, base: req.after, name: 'the import' });
  step();
  for (const ref of req.saved) {
    await deps.sync.apply({ op: 'remove', kind: req.kind, ref });
    step();
  }
  for (const r of req.rated) {
    await deps.client.setRating(r.ref, r.before, { rated: true });
    step();
  }
  return deps.sync.read(req.kind);
}
