import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { ImportFile, ImportMatch, ImportOutcome, ImportProgress } from '../../shared/import-export.ts';
import type { AuthStatus, Queue, QueueKind, UserRating } from '../../shared/models.ts';
import { accountKeys } from './account.ts';
import { authKeys } from './auth.ts';
import { call } from './call.ts';
import { queueKeys } from './queue.ts';
import { contentOf } from './queue-content.ts';
import type { QueueHistory } from './queue-history.ts';
import { titleKeys } from './title.ts';
import { localState } from './local.ts';

/**
 * An import in the query cache: the file handed over by a drop or the desktop menu (read by the
 * Import screen), the import under way per account, the core's progress (fed by events.ts), a hand
 * search's results, the person's ratings the file would replace, and the calls that read and match
 * a file, apply the confirmed import and undo it. They run outside any screen: leaving the Import
 * screen does not lose their answer.
 */
export const importKeys = {
  all: ['import'] as const,
  /** A file dropped on the window or opened with File › Import…, waiting for the Import screen. */
  handedFile: () => [...importKeys.all, 'handed-file'] as const,
  progress: () => [...importKeys.all, 'progress'] as const,
  search: (term: string) => [...importKeys.all, 'search', term] as const,
  /** The import under way (the review with the person's choices) of one account: it outlives the screen. */
  session: (account: string) => [...importKeys.all, 'session', account] as const,
  /** The person's own ratings of the titles a file rates, for the review's "You rated this…". */
  ratingsHad: (refs: readonly string[]) => [...importKeys.all, 'ratings-had', ...refs] as const,
};

const RATINGS_PER_CALL = 100;

/** Whose import it is: the core's account key of the person signed in ('nobody' when none is). */
export function importAccountOf(status: AuthStatus | null | undefined): string {
  return status?.signedIn && status.account ? status.account : 'nobody';
}

/** The account signed in now, read from the cache (to tell an answer that came after a switch). */
function accountNow(client: QueryClient): string {
  return importAccountOf(client.getQueryData<AuthStatus>(authKeys.status()));
}

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
  ratingsHad: (refs: readonly string[]) =>
    queryOptions({
      queryKey: importKeys.ratingsHad(refs),
      queryFn: () => ratingsHad(refs),
      enabled: refs.length > 0,
      staleTime: 0,
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
export async function readAndMatch(client: QueryClient, { name, text }: HandedFile): Promise<MatchedFile> {
  client.setQueryData(importKeys.progress(), null);
  const file = await call('import.read', { text });
  const matches = await call('import.match', { entries: file.entries });
  return { name, file, matches };
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
 * The confirmed import into one queue. Its change to the queue is one undo step of that queue, like
 * any bulk edit (the queue screen's Undo takes it back); the queue and ratings views are refreshed.
 */
export async function applyImport(
  client: QueryClient,
  history: QueueHistory,
  { label, ...input }: ApplyRequest,
): Promise<ImportOutcome> {
  const account = accountNow(client);
  const outcome = await call('import.apply', input);
  // Another account signed in meanwhile: its undo history and cache are not this import's.
  if (accountNow(client) !== account) return outcome;
  // Before and after as the service had them (not the screen's copy, which may be older).
  const after = contentOf(outcome.queue);
  const importedSaved = new Set(outcome.saved);
  const before = { order: outcome.before, saved: after.saved.filter((i) => !importedSaved.has(i.ref)) };
  if (outcome.placed.length > 0 || outcome.saved.length > 0) history.record(input.kind, { label, before, after });
  refreshAfter(client, outcome.kind, outcome.queue);
  return outcome;
}

/** Takes back everything an import did (order, saved titles, ratings). */
export async function undoImport(client: QueryClient, outcome: ImportOutcome): Promise<Queue> {
  const account = accountNow(client);
  const queue = await call('import.undo', {
    kind: outcome.kind,
    before: outcome.before,
    after: outcome.after,
    saved: outcome.saved,
    rated: outcome.rated.map((r) => ({ ref: r.ref, before: r.before })),
  });
  if (accountNow(client) === account) refreshAfter(client, outcome.kind, queue);
  return queue;
}

function refreshAfter(client: QueryClient, kind: QueueKind, queue: Queue): void {
  client.setQueryData(queueKeys.list(kind), queue);
  void client.invalidateQueries({ queryKey: queueKeys.kind(kind) });
  void client.invalidateQueries({ queryKey: accountKeys.ratings() });
  void client.invalidateQueries({ queryKey: titleKeys.all });
}

/** The ratings the person already gave the titles a file rates (ratings.get takes 100 refs a call). */
async function ratingsHad(refs: readonly string[]): Promise<Map<string, UserRating | null>> {
  const batches: string[][] = [];
  for (let i = 0; i < refs.length; i += RATINGS_PER_CALL) batches.push(refs.slice(i, i + RATINGS_PER_CALL));
  const answers = await Promise.all(batches.map((batch) => call('ratings.get', { refs: batch })));
  return new Map(answers.flat().map((r) => [r.title.ref, r.userRating]));
}

/** Stops matching or an import under way (after its current step). */
export function cancelImport(): Promise<unknown> {
  return call('import.cancel', {}).catch(() => undefined);
}
