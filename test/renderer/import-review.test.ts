import { describe, expect, it } from 'vitest';
import type { ImportCandidate, ImportMatch, ImportOutcome, Placement } from '../../shared/import-export.ts';
import type { QueueKind } from '../../shared/models.ts';
import { importCandidate } from '../helpers/import-candidate.ts';
import type { MatchedFile } from '../../renderer/queries/import.ts';
import {
  FIRST_STEP,
  importStep,
  type ImportEvent,
  type ImportState,
} from '../../renderer/screens/import/import-phase.ts';
import {
  ratingsToSet,
  refsToOtherQueue,
  refsToQueue,
  tally,
  type ReviewOptions,
} from '../../renderer/screens/import/review-state.ts';

/**
 * The import as the review keeps it (renderer/screens/import): the phase reducer every change goes
 * through, and the tally the review's counts and Confirm read, which follows each choice.
 */
function candidate(id: string, placement: Partial<Record<QueueKind, Placement>> = {}): ImportCandidate {
  return importCandidate({
    ref: id,
    title: `Title ${id}`,
    year: 2000,
    placement: { instant: 'now', disc: 'now', ...placement },
  });
}
const matched = (c: ImportCandidate): ImportMatch => ({ status: 'matched', ref: c.ref, candidates: [c], reason: '' });
const entry = (line: number, rating: 1 | 2 | 3 | 4 | 5 | null = null) => ({
  line,
  title: `Title ${line}`,
  year: 2000,
  type: null,
  ref: null,
  rating,
  listed: true,
});

const heat = candidate('heat');
const discOnly = candidate('disc-only', { instant: 'never' });
const nowhere = candidate('nowhere', { instant: 'never', disc: 'never' });
const file: MatchedFile = {
  name: 'films.txt',
  file: {
    source: 'text',
    label: 'Plain text list',
    entries: [entry(1, 4), entry(2), entry(3)],
    skipped: [],
    kind: null,
    hasRatings: true,
    isList: true,
  },
  matches: [matched(heat), matched(discOnly), matched(nowhere)],
};

function reviewAfter(...events: ImportEvent[]): Extract<ImportState, { phase: 'review' }> {
  const matching = importStep(FIRST_STEP, { type: 'read', name: 'films.txt' });
  const matchedState = importStep(matching, { type: 'matched', matched: file, preferredKind: 'instant' });
  const end = events.reduce(importStep, matchedState);
  if (end.phase !== 'review') throw new Error(`expected the review, got ${end.phase}`);
  return end;
}

describe('the import’s phases', () => {
  it('goes choose → matching → review, and a failed match returns to the chooser with the words', () => {
    const matching = importStep(FIRST_STEP, { type: 'read', name: 'films.txt' });
    expect(matching).toEqual({ phase: 'matching', name: 'films.txt' });
    expect(importStep(matching, { type: 'matched', matched: file, preferredKind: 'disc' })).toMatchObject({
      phase: 'review',
      review: { options: { kind: 'disc' } },
    });
    const error = { kind: 'invalid' as const, message: 'The file is empty.' };
    expect(importStep(matching, { type: 'failed', error })).toEqual({ phase: 'choose', problem: error });
  });

  it('keeps the person’s choices in the review, and a failed import returns to them', () => {
    const review = reviewAfter({ type: 'choose', index: 0, ref: null }, { type: 'keep-rating', index: 0, keep: true });
    expect(review.review.rows.map((r) => [r.chosen, r.keepRating])).toEqual([
      [null, true],
      ['disc-only', false],
      ['nowhere', false],
    ]);
    const applying = importStep(review, { type: 'applying', kind: 'instant' });
    const back = importStep(applying, { type: 'failed', error: { kind: 'offline', message: 'x' } });
    expect(back).toMatchObject({ phase: 'review', review: review.review, problem: { kind: 'offline' } });
    // Leaving the screen keeps the review (and a run under way) for when the person comes back.
    expect(importStep(review, { type: 'left' })).toBe(review);
    expect(importStep(applying, { type: 'left' })).toBe(applying);
  });

  it('ends with every queue’s outcome and the Undo state; starting over forgets the import', () => {
    const applying = importStep(reviewAfter(), { type: 'applying', kind: 'instant' });
    const outcome = { kind: 'instant', placed: ['heat'] } as unknown as ImportOutcome;
    const done = importStep(applying, { type: 'applied', outcomes: [outcome] });
    expect(done).toMatchObject({ phase: 'done', outcomes: [outcome], placement: 'bottom', undo: 'none' });
    expect(importStep(importStep(done, { type: 'undoing' }), { type: 'undone' })).toMatchObject({ undo: 'undone' });
    expect(importStep(done, { type: 'start-over' })).toEqual(FIRST_STEP);
    expect(importStep(done, { type: 'left' })).toEqual(FIRST_STEP);
    expect(importStep(importStep(done, { type: 'undoing' }), { type: 'left' })).toMatchObject({ phase: 'done' });
    // A late answer for a phase that has passed changes nothing.
    expect(importStep(FIRST_STEP, { type: 'matched', matched: file, preferredKind: undefined })).toEqual(FIRST_STEP);
  });
});

describe('the review’s tally', () => {
  const none = new Map();
  const options = (more: Partial<ReviewOptions> = {}): ReviewOptions => ({
    kind: 'instant',
    placement: 'bottom',
    addToQueue: true,
    setRatings: true,
    otherQueue: false,
    ...more,
  });

  it('follows a skip: one fewer to add, one more skipped', () => {
    const { rows } = reviewAfter().review;
    expect(tally(rows, options(), new Set(), none)).toMatchObject({ toAdd: 1, leftOut: 2, skipped: 0 });
    const skipped = reviewAfter({ type: 'choose', index: 0, ref: null }).review.rows;
    expect(tally(skipped, options(), new Set(), none)).toMatchObject({ toAdd: 0, skipped: 1, ratings: 0 });
  });

  it('offers a disc-only title for the disc queue, and sends it there only when asked', () => {
    const { rows } = reviewAfter().review;
    expect(tally(rows, options(), new Set(), none).onlyInOther).toBe(1);
    expect([refsToQueue(rows, options()), refsToOtherQueue(rows, options())]).toEqual([
      ['heat', 'disc-only', 'nowhere'],
      [],
    ]);
    const asked = options({ otherQueue: true });
    expect([refsToQueue(rows, asked), refsToOtherQueue(rows, asked)]).toEqual([['heat', 'nowhere'], ['disc-only']]);
    expect(tally(rows, asked, new Set(), none)).toMatchObject({ toAdd: 1, leftOut: 1, onlyInOther: 1 });
  });

  it('counts a rating that replaces the person’s own, and keeping theirs takes it out', () => {
    const had = new Map([['heat', 3 as const]]);
    const { rows } = reviewAfter().review;
    expect(tally(rows, options(), new Set(), had)).toMatchObject({ ratings: 1, replacing: 1 });
    const kept = reviewAfter({ type: 'keep-rating', index: 0, keep: true }).review.rows;
    expect(ratingsToSet(kept, options())).toEqual([]);
    expect(tally(kept, options(), new Set(), had)).toMatchObject({ ratings: 0, replacing: 0 });
    expect(tally(rows, options(), new Set(), new Map([['heat', 4 as const]]))).toMatchObject({ replacing: 0 });
  });

  it('counts a title already queued as staying, not as added', () => {
    const { rows } = reviewAfter().review;
    expect(tally(rows, options(), new Set(['heat']), none)).toMatchObject({ toAdd: 0, alreadyQueued: 1 });
  });
});
