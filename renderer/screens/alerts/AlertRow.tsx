import { alertWords, type Alert } from '../../../shared/alerts.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { useAlertAction, useMarkAlertsRead } from '../../queries/alerts.ts';
import { appErrorOf } from '../../queries/call.ts';
import { useNavigation } from '../../router.ts';

const KIND_WORDS: Record<Alert['kind'], string> = { available: 'Now available', leaving: 'Leaving soon', gone: 'Gone' };

function noticed(ms: number): string {
  return new Date(ms).toLocaleString([], { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
}

/** One alert: what happened, its title as a link, when it was noticed, and the action it calls for. */
export function AlertRow({ alert }: { alert: Alert }) {
  const nav = useNavigation();
  const action = useAlertAction();
  const markRead = useMarkAlertsRead();
  const open = () => {
    nav.openTitle(alert.ref);
    if (!alert.read) markRead.mutate([alert.id]);
  };
  const rest = alertWords(alert).slice(alert.title.length);
  return (
    <li className={alert.read ? 'alert-row' : 'alert-row unread'} data-kind={alert.kind}>
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
        {action.isError && <ErrorMessage error={appErrorOf(action.error)} />}
      </div>
      <div className="alert-actions">
        {alert.kind === 'available' && alert.queue === 'instant' ? (
          <button type="button" className="button small primary" aria-label={`Play: ${alert.title}`} onClick={open}>
            ▶ Play
          </button>
        ) : alert.kind === 'gone' ? (
          <button
            type="button"
            className="button small"
            aria-label={`Remove: ${alert.title}`}
            disabled={action.isPending}
            onClick={() => action.mutate({ alert, action: 'remove' })}
          >
            Remove
          </button>
        ) : (
          <button
            type="button"
            className="button small"
            aria-label={`Move to top: ${alert.title}`}
            disabled={action.isPending}
            onClick={() => action.mutate({ alert, action: 'top' })}
          >
            Move to top
          </button>
        )}
        {!alert.read && (
          <button
            type="button"
            className="button small subtle"
            aria-label={`Mark read: ${alert.title}`}
            onClick={() => markRead.mutate([alert.id])}
          >
            Mark read
          </button>
        )}
      </div>
    </li>
  );
}
