import type { ImportCandidate, ImportOutcome } from '../../../shared/import-export.ts';
import type { AppError, QueueKind } from '../../../shared/models.ts';
import type { MatchedFile } from '../../queries/import.ts';
import { initialOptions, initialRows, type ReviewOptions, type ReviewRow } from './review-state.ts';

/**
 * An import as plain data, one phase at a time: choose a file → matching → the review → applying →
 * done. It is kept in the query cache per account (useImportState.ts), so leaving the screen and
 * coming back finds the review as the person left it; every change goes through `importStep`.
 */
export interface Review {
  matched: MatchedFile;
  rows: ReviewRow[];
  options: ReviewOptions;
}

export type ImportState =
  | { phase: 'choose'; problem: AppError | null }
  | { phase: 'matching'; name: string }
  | { phase: 'review'; review: Review; problem: AppError | null }
  | { phase: 'applying'; review: Review; kind: QueueKind }
  | {
      phase: 'done';
      outcomes: ImportOutcome[];
      placement: 'top' | 'bottom';
      undo: UndoState;
      problem: AppError | null;
    };

export type UndoState = 'none' | 'undoing' | 'undone';

export type ImportEvent =
  | { type: 'read'; name: string }
  | { type: 'matched'; matched: MatchedFile; preferredKind: QueueKind | undefined }
  | { type: 'failed'; error: AppError }
  | { type: 'choose'; index: number; ref: string | null }
  | { type: 'found'; index: number; more: ImportCandidate[] }
  | { type: 'keep-rating'; index: number; keep: boolean }
  | { type: 'options'; options: ReviewOptions }
  | { type: 'applying'; kind: QueueKind }
  | { type: 'applied'; outcomes: ImportOutcome[]; problem?: AppError }
  | { type: 'undoing' }
  | { type: 'undone' }
  | { type: 'start-over' }
  | { type: 'left' };

export const FIRST_STEP: ImportState = { phase: 'choose', problem: null };

export function importStep(state: ImportState, event: ImportEvent): ImportState {
  switch (event.type) {
    case 'read':
      return { phase: 'matching', name: event.name };
    case 'matched':
      return state.phase !== 'matching' ? state : { phase: 'review', review: reviewOf(event), problem: null };
    case 'failed':
      return failed(state, event.error);
    case 'choose':
    case 'found':
    case 'keep-rating':
    case 'options':
      return state.phase === 'review' ? { ...state, review: edited(state.review, event) } : state;
    case 'applying':
      return state.phase === 'review' ? { phase: 'applying', review: state.review, kind: event.kind } : state;
    case 'applied':
      return state.phase !== 'applying'
        ? state
        : {
            phase: 'done',
            outcomes: event.outcomes,
            placement: state.review.options.placement,
            undo: 'none',
            problem: event.problem ?? null,
          };
    case 'undoing':
      return state.phase === 'done' ? { ...state, undo: 'undoing', problem: null } : state;
    case 'undone':
      return state.phase === 'done' ? { ...state, undo: 'undone' } : state;
    case 'start-over':
      return FIRST_STEP;
    case 'left':
      return left(state);
  }
}

function reviewOf({ matched, preferredKind }: Extract<ImportEvent, { type: 'matched' }>): Review {
  return {
    matched,
    rows: initialRows(matched.file, matched.matches),
    options: initialOptions(matched.file, preferredKind),
  };
}

/**
 * The person left the screen: work under way and the review wait for them; a finished import (its
 * Undo is the queue's too) and an old refusal do not, so coming back offers a new file.
 */
function left(state: ImportState): ImportState {
  if (state.phase === 'done' && state.undo !== 'undoing') return FIRST_STEP;
  if (state.phase === 'choose' && state.problem) return FIRST_STEP;
  return state;
}

/** A failure keeps what the person had: the file chooser, the review, or the finished import. */
function failed(state: ImportState, error: AppError): ImportState {
  switch (state.phase) {
    case 'matching':
      return { phase: 'choose', problem: error };
    case 'applying':
      return { phase: 'review', review: state.review, problem: error };
    case 'done':
      return { ...state, undo: 'none', problem: error };
    default:
      return { ...state, problem: error };
  }
}

type RowEvent = Extract<ImportEvent, { type: 'choose' | 'found' | 'keep-rating' | 'options' }>;

function edited(review: Review, event: RowEvent): Review {
  if (event.type === 'options') return { ...review, options: event.options };
  const rows = review.rows.map((r) => (r.index === event.index ? editedRow(r, event) : r));
  return { ...review, rows };
}

function editedRow(row: ReviewRow, event: Exclude<RowEvent, { type: 'options' }>): ReviewRow {
  switch (event.type) {
    case 'choose':
      return { ...row, chosen: event.ref };
    case 'keep-rating':
      return { ...row, keepRating: event.keep };
    case 'found':
      return { ...row, found: [...row.found, ...event.more.filter((m) => !row.found.some((f) => f.ref === m.ref))] };
  }
}
