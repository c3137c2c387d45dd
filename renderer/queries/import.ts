import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImportFile, ImportMatch, ImportOutcome, ImportProgress } from '../../shared/import-export.ts';
import type { Queue, QueueKind, UserRating } from '../../shared/models.ts';
import { accountKeys } from './account.ts';
import { call } from './call.ts';
import { queueKeys } from './queue.ts';
import { contentOf } from './queue-content.ts';
import { useQueueHistoryOwner } from './queue-history.ts';
import { useStillSameAccount } from './auth.ts';
import { titleKeys } from './title.ts';
import { localState } from './local.ts';

/**
 * An import in the query cache: the file handed over by a drop or the desktop menu (read by the
 * Import screen), the core's progress (fed by events.ts), a hand search's results, and the
 * mutations that read and match a file, apply the confirmed import and undo it.
 */
export const importKeys = {
  all: ['import'] as const,
  /** A file dropped on the window or opened with File › Import…, waiting for the Import screen. */
  handedFile: () => [...importKeys.all, 'handed-file'] as const,
  progress: () => [...importKeys.all, 'progress'] as const,
  search: (term: string) => [...importKeys.all, 'search', term] as const,
};

export interface HandedFile {
  name: string;
  text: string;
  /** Why the file could not be read (too large, unreadable): shown instead of importing it. */
  problem?: string;
}

export const importQueries = {
  handedFile: () => localState<HandedFile | null>(importKeys.handedFile(), null),
  progress: () => localState<ImportProgress | null>(importKeys.progress(), null),
  /** The review's "Search by hand": titles with where each can go. */
  search: (term: string) =>
    queryOptions({
      queryKey: importKeys.search(term),
      queryFn: () => call('import.search', { term }),
      enabled: term.trim().length > 0,
    }),
};

export const useImportProgress = (): ImportProgress | null => useQuery(importQueries.progress()).data ?? null;

/** A file read (its kind told from its content) and its entries matched to the catalog. */
export interface MatchedFile {
  name: string;
  file: ImportFile;
  matches: ImportMatch[];
}

/** Reads then matches a file; the largest file the app takes is checked before anything is sent. */
export function useReadAndMatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, text }: HandedFile): Promise<MatchedFile> => {
      client.setQueryData(importKeys.progress(), null);
      const file = await call('import.read', { text });
      const matches = await call('import.match', { entries: file.entries });
      return { name, file, matches };
    },
  });
}

export interface ApplyRequest {
  kind: QueueKind;
  placement: 'top' | 'bottom';
  refs: string[];
  ratings: Array<{ ref: string; rating: UserRating }>;
  /** Words for the queue's Undo: "Imported 57 titles". */
  label: string;
}

/**
 * The confirmed import. Its change to the queue is one undo step of that queue, like any bulk edit
 * (the queue screen's Undo takes it back); the queue and ratings views are refreshed.
 */
export function useApplyImport() {
  const client = useQueryClient();
  const history = useQueueHistoryOwner();
  const stillSameAccount = useStillSameAccount();
  return useMutation({
    mutationFn: ({ label: _label, ...input }: ApplyRequest) => call('import.apply', input),
    onSuccess: (outcome, { kind, label }) => {
      // Before and after as the service had them (not the screen's copy, which may be older).
      const after = contentOf(outcome.queue);
      const importedSaved = new Set(outcome.saved);
      const before = { order: outcome.before, saved: after.saved.filter((i) => !importedSaved.has(i.ref)) };
      const changed = outcome.placed.length > 0 || outcome.saved.length > 0;
      if (changed) history.record(kind, { label, before, after });
      if (stillSameAccount()) client.setQueryData(queueKeys.list(kind), outcome.queue);
      void client.invalidateQueries({ queryKey: queueKeys.kind(kind) });
      void client.invalidateQueries({ queryKey: accountKeys.ratings() });
      void client.invalidateQueries({ queryKey: titleKeys.all });
    },
  });
}

/** Takes back everything an import did (order, saved titles, ratings). */
export function useUndoImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (outcome: ImportOutcome): Promise<Queue> =>
      call('import.undo', {
        kind: outcome.kind,
        before: outcome.before,
        after: outcome.after,
        saved: outcome.saved,
        rated: outcome.rated.map((r) => ({ ref: r.ref, before: r.before })),
      }),
    onSuccess: (queue, outcome) => {
      client.setQueryData(queueKeys.list(outcome.kind), queue);
      void client.invalidateQueries({ queryKey: queueKeys.kind(outcome.kind) });
      void client.invalidateQueries({ queryKey: accountKeys.ratings() });
      void client.invalidateQueries({ queryKey: titleKeys.all });
    },
  });
}

/** Stops matching or an import under way (after its current step). */
export function cancelImport(): Promise<unknown> {
  return call('import.cancel', {}).catch(() => undefined);
}
