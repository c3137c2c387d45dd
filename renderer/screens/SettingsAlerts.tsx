import '../styles/alerts.css';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { inWebHost } from '../api.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { alertQueries, useSetAlertSettings } from '../queries/alerts.ts';
import { appErrorOf } from '../queries/call.ts';
import { countOf } from '../words.ts';
import { SettingsSection } from './SettingsSection.tsx';

const INTERVALS = [5, 15, 30, 60, 180];
const LEAVING_DAYS = [1, 3, 7, 14, 30];

/**
 * Settings › Alerts: how often the queues are checked, how many days ahead a title leaving is
 * told, and desktop notifications on or off (in a browser, once the browser allows them).
 */
export function AlertSettingsSection() {
  const settings = useQuery(alertQueries.settings());
  const save = useSetAlertSettings();
  const s = settings.data;
  return (
    <SettingsSection id="settings-alerts" title="Alerts">
      <p className="muted small">
        Marquee watches your queues and tells you when a saved title becomes available, or a queued one is about to
        leave or has gone.
      </p>
      {settings.isError && <ErrorMessage error={appErrorOf(settings.error)} onRetry={() => void settings.refetch()} />}
      {s && (
        <>
          <div className="field">
            <label className="check-label">
              <input
                type="checkbox"
                checked={s.notifications}
                onChange={(e) => save.mutate({ notifications: e.target.checked })}
              />
              Desktop notifications
            </label>
            <span className="field-hint">
              One for each alert (several at once come as one). Alerts still show in the Alerts screen when this is off.
            </span>
            {inWebHost && s.notifications && <BrowserPermission />}
          </div>
          <div className="field">
            <label htmlFor="alert-interval">Check every</label>
            <select
              id="alert-interval"
              className="select narrow"
              value={s.intervalMinutes}
              onChange={(e) => save.mutate({ intervalMinutes: Number(e.target.value) })}
            >
              {withCurrent(INTERVALS, s.intervalMinutes).map((n) => (
                <option key={n} value={n}>
                  {n < 1
                    ? countOf(Math.round(n * 60), 'second')
                    : n >= 60
                      ? countOf(n / 60, 'hour')
                      : countOf(n, 'minute')}
                </option>
              ))}
            </select>
            <span className="field-hint">Also when Marquee starts and when you come back to its window.</span>
          </div>
          <div className="field">
            <label htmlFor="alert-days">Tell me a title is leaving</label>
            <select
              id="alert-days"
              className="select narrow"
              value={s.leavingDays}
              onChange={(e) => save.mutate({ leavingDays: Number(e.target.value) })}
            >
              {withCurrent(LEAVING_DAYS, s.leavingDays).map((n) => (
                <option key={n} value={n}>
                  {n === 1 ? '1 day ahead' : `${n} days ahead`}
                </option>
              ))}
            </select>
          </div>
        </>
      )}
      {save.isError && <ErrorMessage error={appErrorOf(save.error)} />}
    </SettingsSection>
  );
}

/** The choices, with the current value among them (a value set elsewhere, like a test's short interval). */
function withCurrent(choices: number[], current: number): number[] {
  return choices.includes(current) ? choices : [...choices, current].sort((a, b) => a - b);
}

/** In a browser, notifications need the browser's permission: ask for it here, or say it was refused. */
function BrowserPermission() {
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (!supported) return <span className="field-hint">This browser cannot show notifications.</span>;
  if (permission === 'granted') return <span className="field-hint">This browser shows them.</span>;
  if (permission === 'denied')
    return (
      <span className="field-hint">
        This browser blocks notifications from Marquee: allow them in the browser's site settings.
      </span>
    );
  return (
    <button
      type="button"
      className="button small"
      onClick={() => void Notification.requestPermission().then(setPermission)}
    >
      Allow notifications in this browser
    </button>
  );
}
