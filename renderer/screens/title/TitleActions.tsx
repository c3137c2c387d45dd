import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type RefObject } from 'react';
import type { QueueKind, TitleDetail } from '../../../shared/models.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { appErrorOf } from '../../queries/call.ts';
import { queueQueries } from '../../queries/queue.ts';
import { titleKeys, titleQueries, useAddToQueue, useRemoveFromQueue } from '../../queries/title.ts';
import { useNavigation } from '../../router.ts';
import { queuesFor, standingIn, standingWords, type QueueStanding } from '../../components/catalog/queue-state.ts';

const QUEUE_NAMES: Record<QueueKind, string> = { instant: 'queue', disc: 'disc queue' };

/** The queue actions: per queue the title's standing as the primary action, and what can be done next. */
export function TitleActions({ title, signedIn }: { title: TitleDetail; signedIn: boolean }) {
  const state = useQuery(titleQueries.state(title.ref, signedIn));
  if (!signedIn) return <p className="muted">Sign in to add this title to your queues and rate it.</p>;
  const kinds = queuesFor(title);
  if (!kinds.length) return null;
  const canPlay = state.data?.instant.some((s) => s.toLowerCase() === 'play') ?? false;
  return (
    <div className="title-actions">
      {kinds.map((kind) => (
        <QueueAction key={kind} kind={kind} titleRef={title.ref} states={state.data ? state.data[kind] : undefined} />
      ))}
      {canPlay && <span className="badge">▶ Play: streams now</span>}
    </div>
  );
}

/**
 * One queue's actions. A button never turns disabled under focus (Chrome then drops focus to the
 * page): while an edit runs it says so and ignores clicks, and once the title's standing changed,
 * focus that was in the group goes to the standing's own button ("In queue · #12", "Add to queue").
 */
function QueueAction({ kind, titleRef, states }: { kind: QueueKind; titleRef: string; states: string[] | undefined }) {
  const nav = useNavigation();
  const client = useQueryClient();
  const queue = useQuery(queueQueries.list(kind));
  const add = useAddToQueue(titleRef, kind);
  const remove = useRemoveFromQueue(titleRef, kind);
  // The queue changed (an edit here, on the queue screen, or a queue.changed event): ask the service again.
  const etag = queue.data?.etag;
  const seenEtag = useRef(etag);
  useEffect(() => {
    if (seenEtag.current !== undefined && etag !== seenEtag.current)
      void client.invalidateQueries({ queryKey: titleKeys.state(titleRef) });
    seenEtag.current = etag;
  }, [client, etag, titleRef]);

  const standing: QueueStanding = standingIn(titleRef, queue.data, states);
  const name = QUEUE_NAMES[kind];
  const busy = add.isPending || remove.isPending;
  const error = add.error ?? remove.error;
  const group = useRef<HTMLDivElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  useFocusAfterChange(group, primary, standing.kind);
  const unlessBusy = (act: () => void) => () => {
    if (!busy) act();
  };
  return (
    <div
      className="queue-action"
      role="group"
      aria-label={kind === 'instant' ? 'Instant queue' : 'Disc queue'}
      ref={group}
    >
      {standing.kind === 'add' ? (
        <>
          <button
            key="primary"
            ref={primary}
            type="button"
            className="button primary"
            aria-disabled={busy}
            onClick={unlessBusy(() => add.mutate({ placement: 'bottom' }))}
          >
            {add.isPending ? 'Adding…' : `Add to ${name}`}
          </button>
          <button
            key="secondary"
            type="button"
            className="button"
            aria-disabled={busy}
            onClick={unlessBusy(() => add.mutate({ placement: 'top' }))}
          >
            Add to top of {name}
          </button>
        </>
      ) : standing.kind === 'in-queue' || standing.kind === 'saved' ? (
        <>
          <button
            key="primary"
            ref={primary}
            type="button"
            className="button state"
            onClick={() => nav.go({ name: 'queue', kind })}
            title={`Show the ${name}`}
          >
            {standingWords(standing, name)}
          </button>
          <button
            key="secondary"
            type="button"
            className="button"
            aria-disabled={busy}
            onClick={unlessBusy(() => remove.mutate())}
            aria-label={`Remove from ${name}`}
          >
            {remove.isPending ? 'Removing…' : 'Remove'}
          </button>
        </>
      ) : (
        <span className="badge">{standingWords(standing, name)}</span>
      )}
      {error && <ErrorMessage compact error={appErrorOf(error)} />}
    </div>
  );
}

/** When `state` changes while focus is in `group` (or was lost to the page), focus `primary`. */
function useFocusAfterChange(
  group: RefObject<HTMLElement | null>,
  primary: RefObject<HTMLElement | null>,
  state: string,
): void {
  const seen = useRef(state);
  useEffect(() => {
    if (seen.current === state) return;
    seen.current = state;
    const active = document.activeElement;
    const lost = !active || active === document.body;
    if (lost || group.current?.contains(active)) primary.current?.focus();
  }, [group, primary, state]);
}
