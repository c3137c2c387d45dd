import { useState } from 'react';
import { alertWords, type Alert } from '../../../shared/alerts.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { useAlertAction, useMarkAlertsRead, type AlertAction } from '../../queries/alerts.ts';
import { appErrorOf } from '../../queries/call.ts';
import { useNavigation } from '../../router.ts';
import { alertOffers, standingWords, type AlertFacts } from './alert-offers.ts';

const KIND_WORDS: Record<Alert['kind'], string> = { available: 'Now available', leaving: 'Leaving soon', gone: 'Gone' };

function noticed(ms: number): string {
  return new Date(ms).toLocaleString([], { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
}

/**
 * One alert: what happened, its title as a link (opened at the service's current address), when
 * it was noticed, and only the actions that can work now (alert-offers.ts). After Remove the row
 * says so and offers nothing more (a title gone cannot be queued again); after any action
 * `onActed` moves focus on.
 */
export function AlertRow({
  alert,
  facts,
  onActed,
}: {
  alert: Alert;
  facts: AlertFacts;
  onActed: (id: string) => void;
}) {
  const nav = useNavigation();
  const action = useAlertAction();
  const markRead = useMarkAlertsRead();
  const [removedHere, setRemovedHere] = useState(false);
  const offers = alertOffers(alert, facts);
  // A control stays while its action runs (a queue event may come first), so focus is moved, not dropped.
  const doing = action.isPending ? action.variables?.action : undefined;
  const open = () => {
    nav.openTitle(alert.ref);
    if (!alert.read) markRead.mutate([alert.id]);
  };
  // Never `disabled` while an action runs: Chrome would drop the focus to the page.
  const act = (v: AlertAction, done: () => void) => () => {
    if (!action.isPending) action.mutate(v, { onSuccess: done });
  };
  const rest = alertWords(alert).slice(alert.title.length);
  // Removed here and not queued again since (by another device, or the queue screen).
  const standing = standingWords(alert, offers, removedHere && offers.entry === null, facts.inCatalog);
  const name = alert.title;
  return (
    <li className={alert.read ? 'alert-row' : 'alert-row unread'} data-kind={alert.kind} data-alert-id={alert.id}>
      <span className={`alert-kind ${alert.kind}`}>{KIND_WORDS[alert.kind]}</span>
      <div className="alert-text">
        <p className="alert-words">
          <button type="button" className="link-button inline" onClick={open}>
            {alert.title}
          </button>
          {rest}
        </p>
        <p className="alert-when">
          {!alert.read && <strong className="alert-new">New · </strong>}
          Noticed {noticed(alert.at)} · {alert.queue === 'instant' ? 'Instant queue' : 'Disc queue'}
        </p>
        {standing && <p className="alert-standing">{standing}</p>}
        {action.isError && <ErrorMessage compact error={appErrorOf(action.error)} />}
      </div>
      <div className="alert-actions">
        {offers.play && (
          <button type="button" className="button small primary" aria-label={`Play: ${name}`} onClick={open}>
            ▶ Play
          </button>
        )}
        {(offers.top || doing === 'top') && (
          <button
            type="button"
            className="button small"
            aria-label={`Move to top: ${name}`}
            aria-disabled={action.isPending}
            onClick={act({ alert, action: 'top' }, () => onActed(alert.id))}
          >
            Move to top
          </button>
        )}
        {((offers.remove && offers.entry) || doing === 'remove') && (
          <button
            type="button"
            className="button small"
            aria-label={`Remove: ${name}`}
            aria-disabled={action.isPending}
            onClick={act({ alert, action: 'remove' }, () => {
              setRemovedHere(true);
              onActed(alert.id);
            })}
          >
            Remove
          </button>
        )}
        {(!alert.read || markRead.isPending) && (
          <button
            type="button"
            className="button small subtle"
            aria-label={`Mark read: ${name}`}
            aria-disabled={markRead.isPending}
            onClick={() => !markRead.isPending && markRead.mutate([alert.id], { onSuccess: () => onActed(alert.id) })}
          >
            Mark read
          </button>
        )}
      </div>
    </li>
  );
}
