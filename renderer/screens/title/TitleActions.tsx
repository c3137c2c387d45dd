import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { QueueKind, TitleDetail } from '../../../shared/models.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { appErrorOf } from '../../queries/call.ts';
import { queueQueries } from '../../queries/queue.ts';
import { titleKeys, titleQueries, useAddToQueue, useRemoveFromQueue } from '../../queries/title.ts';
import { useNavigation } from '../../router.ts';
import { queuesFor, standingIn, standingWords, type QueueStanding } from './queue-state.ts';

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
    if (seenEtag.current !== undefined && etag !== seenEtag.current) void client.invalidateQueries({ queryKey: titleKeys.state(titleRef) });
    seenEtag.current = etag;
  }, [client, etag, titleRef]);

  const standing: QueueStanding = standingIn(titleRef, queue.data, states);
  const name = QUEUE_NAMES[kind];
  const busy = add.isPending || remove.isPending;
  const error = add.error ?? remove.error;
  return (
    <div className="queue-action" role="group" aria-label={kind === 'instant' ? 'Instant queue' : 'Disc queue'}>
      {standing.kind === 'add' ? (
        <>
          <button type="button" className="button primary" disabled={busy} onClick={() => add.mutate({ placement: 'bottom' })}>
            {add.isPending ? 'Adding…' : `Add to ${name}`}
          </button>
          <button type="button" className="button" disabled={busy} onClick={() => add.mutate({ placement: 'top' })} aria-label={`Add to top of ${name}`}>
            Add to top
          </button>
        </>
      ) : standing.kind === 'in-queue' || standing.kind === 'saved' ? (
        <>
          <button type="button" className="button state" onClick={() => nav.go({ name: 'queue', kind })} title={`Show the ${name}`}>
            {standingWords(standing, name)}
          </button>
          <button type="button" className="button" disabled={busy} onClick={() => remove.mutate()} aria-label={`Remove from ${name}`}>
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
