import { hashKey, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { ImportOutcome } from '../../../shared/import-export.ts';
import type { QueueKind } from '../../../shared/models.ts';
import { countOf } from '../../words.ts';
import { authKeys, authQueries } from '../../queries/auth.ts';
import { appErrorOf } from '../../queries/call.ts';
import {
  applyImport,
  importAccountOf,
  importKeys,
  readAndMatch,
  undoImport,
  type HandedFile,
} from '../../queries/import.ts';
import { localState } from '../../queries/local.ts';
import { useQueueHistoryOwner, type QueueHistory } from '../../queries/queue-history.ts';
import { FIRST_STEP, importStep, type ImportEvent, type ImportState, type Review } from './import-phase.ts';
import { OTHER_QUEUE, ratingsToSet, refsToOtherQueue, refsToQueue } from './review-state.ts';

/** The import of the signed-in account, and what the person can do with it. */
export interface ImportControls {
  state: ImportState;
  dispatch: (event: ImportEvent) => void;
  read: (file: HandedFile) => void;
  confirm(review: Review): void;
  undo(outcomes: ImportOutcome[]): void;
  startOver: () => void;
}

/**
 * The import's owner is the query cache, under the signed-in account's key: it outlives the Import
 * screen (leave the review, come back, it is there) and is dropped with the rest of the account's
 * data on sign-out. A call that ends after the account changed writes nothing.
 */
export function useImportState(preferredKind: QueueKind | undefined): ImportControls {
  const client = useQueryClient();
  const account = importAccountOf(useQuery(authQueries.status()).data);
  const history = useQueueHistoryOwner();
  const state = useSession(client, account);
  // Stable while the account is: the screen's unmount effect depends on it.
  const dispatch = useMemo(() => dispatcher(client, account), [client, account]);
  const actions = useMemo(
    () => ({
      read: (file: HandedFile) => void readFile(client, dispatch, file, preferredKind),
      confirm: (review: Review) => void confirmReview(client, history, dispatch, review),
      undo: (outcomes: ImportOutcome[]) => void undoAll(client, dispatch, outcomes),
      startOver: () => dispatch({ type: 'start-over' }),
    }),
    [client, history, dispatch, preferredKind],
  );
  return { state, dispatch, ...actions };
}

/**
 * The account's import, read from the cache as it changes. The query observer keeps the entry for
 * good (gcTime Infinity) but tells of a change a tick later; a controlled radio button needs its new
 * state within the click, so the cache itself is subscribed to.
 */
function useSession(client: QueryClient, account: string): ImportState {
  const options = localState<ImportState>(importKeys.session(account), FIRST_STEP);
  useQuery(options);
  const hash = hashKey(options.queryKey);
  const subscribe = useCallback(
    (changed: () => void) =>
      client.getQueryCache().subscribe((e) => {
        if (e.query.queryHash === hash) changed();
      }),
    [client, hash],
  );
  const read = () => client.getQueryData<ImportState>(options.queryKey) ?? FIRST_STEP;
  return useSyncExternalStore(subscribe, read);
}

type Dispatch = (event: ImportEvent) => void;

function dispatcher(client: QueryClient, account: string): Dispatch {
  return (event) => {
    // Another account signed in meanwhile: this import's answer is not theirs.
    if (importAccountOf(client.getQueryData(authKeys.status())) !== account) return;
    client.setQueryData<ImportState>(importKeys.session(account), (s) => importStep(s ?? FIRST_STEP, event));
  };
}

async function readFile(client: QueryClient, dispatch: Dispatch, file: HandedFile, kind: QueueKind | undefined) {
  dispatch({ type: 'read', name: file.name });
  try {
    dispatch({ type: 'matched', matched: await readAndMatch(client, file), preferredKind: kind });
  } catch (error) {
    dispatch({ type: 'failed', error: appErrorOf(error) });
  }
}

/** The confirmed review: the chosen queue, then the titles only the other queue offers, each its own undo step. */
async function confirmReview(
  client: QueryClient,
  history: QueueHistory,
  dispatch: Dispatch,
  { rows, options }: Review,
) {
  const { kind, placement } = options;
  const refs = refsToQueue(rows, options);
  const elsewhere = refsToOtherQueue(rows, options);
  dispatch({ type: 'applying', kind });
  let first: ImportOutcome;
  try {
    const label = `Imported ${countOf(refs.length, 'title')}`;
    first = await applyImport(client, history, { kind, placement, refs, ratings: ratingsToSet(rows, options), label });
  } catch (error) {
    return dispatch({ type: 'failed', error: appErrorOf(error) });
  }
  if (elsewhere.length === 0 || first.cancelled) return dispatch({ type: 'applied', outcomes: [first] });
  try {
    const label = `Imported ${countOf(elsewhere.length, 'title')}`;
    const other = await applyImport(client, history, {
      kind: OTHER_QUEUE[kind],
      placement,
      refs: elsewhere,
      ratings: [],
      label,
    });
    dispatch({ type: 'applied', outcomes: [first, other] });
  } catch (error) {
    // The first queue's change was made: it is shown (with its Undo) along with why the other failed.
    dispatch({ type: 'applied', outcomes: [first], problem: appErrorOf(error) });
  }
}

async function undoAll(client: QueryClient, dispatch: Dispatch, outcomes: ImportOutcome[]) {
  dispatch({ type: 'undoing' });
  try {
    for (const outcome of [...outcomes].reverse()) await undoImport(client, outcome);
    dispatch({ type: 'undone' });
  } catch (error) {
    dispatch({ type: 'failed', error: appErrorOf(error) });
  }
}
