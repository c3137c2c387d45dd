import { createContext, createElement, useContext, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { QueueKind } from '../../shared/models.ts';
import type { QueueContent } from './queue-content.ts';

/**
 * Undo and redo of queue edits, per queue, of one account for this run of the app. An entry keeps the queue's
 * content (available order and saved titles) before and after one edit (a drag, a bulk move, a
 * sort, a remove): undoing carries the "before" content onto the queue as it is now (see
 * rebaseOrder and savedChanges), so it is a new edit, not a rewind.
 */
export interface HistoryEntry {
  /** What the edit did, in words: "Moved “Alien” to position 3". */
  label: string;
  before: QueueContent;
  after: QueueContent;
}

export interface HistoryState {
  undo: readonly HistoryEntry[];
  redo: readonly HistoryEntry[];
}

const LIMIT = 100;
const EMPTY: HistoryState = { undo: [], redo: [] };

export interface QueueHistory {
  get(kind: QueueKind): HistoryState;
  /** A new edit: pushed on the undo stack; the redo stack is cleared. */
  record(kind: QueueKind, entry: HistoryEntry): void;
  /** Takes the edit to undo (moving it to the redo stack), or undefined. */
  takeUndo(kind: QueueKind): HistoryEntry | undefined;
  /** Takes the edit to redo (moving it back to the undo stack), or undefined. */
  takeRedo(kind: QueueKind): HistoryEntry | undefined;
  subscribe: (listener: () => void) => () => void;
}

export function createQueueHistory(): QueueHistory {
  const states = new Map<QueueKind, HistoryState>();
  const listeners = new Set<() => void>();
  const get = (kind: QueueKind) => states.get(kind) ?? EMPTY;
  const set = (kind: QueueKind, state: HistoryState) => {
    states.set(kind, state);
    for (const listener of listeners) listener();
  };
  return {
    get,
    record(kind, entry) {
      set(kind, { undo: [...get(kind).undo, entry].slice(-LIMIT), redo: [] });
    },
    takeUndo(kind) {
      const { undo, redo } = get(kind);
      const entry = undo.at(-1);
      if (entry) set(kind, { undo: undo.slice(0, -1), redo: [...redo, entry] });
      return entry;
    },
    takeRedo(kind) {
      const { undo, redo } = get(kind);
      const entry = redo.at(-1);
      if (entry) set(kind, { undo: [...undo, entry], redo: redo.slice(0, -1) });
      return entry;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const QueueHistoryContext = createContext<QueueHistory | null>(null);

/**
 * The signed-in account's history: App gives each account its own (keyed by the account), so a
 * sign-out or a switch of profile drops it and Undo never replays one account's edits on another's.
 */
export function QueueHistoryProvider({ children }: { children: ReactNode }) {
  const [history] = useState(createQueueHistory);
  return createElement(QueueHistoryContext.Provider, { value: history }, children);
}

/** The account's history (to record and take edits); only below a QueueHistoryProvider. */
export function useQueueHistoryOwner(): QueueHistory {
  const history = useContext(QueueHistoryContext);
  if (!history) throw new Error('useQueueHistoryOwner: no QueueHistoryProvider above (App gives one per account)');
  return history;
}

export function useQueueHistory(kind: QueueKind): HistoryState {
  const history = useQueueHistoryOwner();
  return useSyncExternalStore(history.subscribe, () => history.get(kind));
}
