import '../../styles/alerts.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect, useRef, useState } from 'react';
import type { AlertList } from '../../../shared/alerts.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { ScreenFrame } from '../../components/ScreenFrame.tsx';
import { Loading, SkeletonRows } from '../../components/Skeleton.tsx';
import { alertKeys, alertQueries, useMarkAlertsRead } from '../../queries/alerts.ts';
import { appErrorOf, call } from '../../queries/call.ts';
import { focusAfterAlert } from './alert-focus.ts';
import { AlertRow } from './AlertRow.tsx';
import { useAlertFacts } from './useAlertFacts.ts';
import { countOf } from '../../words.ts';

/**
 * Alerts: what the availability watcher noticed about the titles in the person's queues, newest
 * first, unread ones marked; each names its title (a link to it) and offers the actions that can
 * work now, read from the queues and the titles' states in the cache (useAlertFacts).
 */
export function AlertsScreen() {
  const list = useQuery(alertQueries.list());
  const settings = useQuery(alertQueries.settings());
  const markAll = useMarkAlertsRead();
  const checkNow = useCheckNow();
  const unread = list.data?.unread ?? 0;
  const factsOf = useAlertFacts(list.data?.alerts ?? []);
  const rows = useRef<HTMLUListElement>(null);
  // After an action, in the commit that takes its control away (layout: before the page sees the focus lost).
  const [acted, setActed] = useState<{ id: string } | null>(null);
  useLayoutEffect(() => {
    if (acted) focusAfterAlert(rows.current, acted.id);
  }, [acted]);
  const markAllRead = () => {
    if (unread > 0 && !markAll.isPending) markAll.mutate(undefined);
  };
  const minutes = settings.data?.intervalMinutes ?? 15;
  return (
    <ScreenFrame
      title="Alerts"
      count={list.data ? (unread === 0 ? 'No unread alerts' : `${unread} unread`) : null}
      lede={`Marquee checks your queues every ${minutes < 1 ? countOf(Math.round(minutes * 60), 'second') : countOf(minutes, 'minute')} and when you come back to it: titles you saved that become available, and titles leaving soon or gone.`}
    >
      <div className="toolbar">
        <button
          type="button"
          className="button small"
          onClick={markAllRead}
          aria-disabled={unread === 0 || markAll.isPending}
        >
          Mark all read
        </button>
        <button
          type="button"
          className="button small subtle"
          onClick={() => !checkNow.isPending && checkNow.mutate()}
          aria-disabled={checkNow.isPending}
        >
          {checkNow.isPending ? 'Checking…' : 'Check now'}
        </button>
      </div>
      {list.isPending && (
        <Loading label="Loading your alerts…">
          <SkeletonRows count={4} />
        </Loading>
      )}
      {list.isError && <ErrorMessage error={appErrorOf(list.error)} onRetry={() => void list.refetch()} />}
      {checkNow.isError && <ErrorMessage error={appErrorOf(checkNow.error)} />}
      {list.data && list.data.alerts.length === 0 && (
        <div className="empty-state">
          <strong>No alerts yet.</strong>
          <span>When a title you saved becomes available, or one in your queue is about to leave, it shows here.</span>
        </div>
      )}
      {list.data && list.data.alerts.length > 0 && (
        <ul className="alert-list" aria-label="Alerts, newest first" ref={rows}>
          {list.data.alerts.map((alert) => (
            <AlertRow key={alert.id} alert={alert} facts={factsOf(alert)} onActed={(id) => setActed({ id })} />
          ))}
        </ul>
      )}
    </ScreenFrame>
  );
}

/** "Check now": the core checks at once; new alerts arrive with the answer. */
function useCheckNow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call('alerts.check', { reason: 'now' }),
    onSuccess: (list) => client.setQueryData<AlertList>(alertKeys.list(), list),
  });
}
