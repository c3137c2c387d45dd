import { z } from 'zod';
import type { QueueKind } from './models.ts';

/**
 * Availability alerts: what the core's watcher (electron/core/alerts/) tells a person about the
 * titles in their queues, the settings that steer it, and the words of a desktop notification
 * (Electron's main process and the web host's renderer show the same ones).
 */

/** `available`: a saved title can be had now; `leaving`: a queued title leaves within the days set; `gone`: it left the catalog. */
export type AlertKind = 'available' | 'leaving' | 'gone';

export interface Alert {
  /**
   * The event's identity: what happened, the date it concerns (leaving), the queue, the format and
   * the title's path (titlePath), never the service's address, so the same event is told once for
   * life. (The account is the list it is kept in.)
   */
  id: string;
  kind: AlertKind;
  /** The title's ref at the service's current address, and its name. */
  ref: string;
  title: string;
  queue: QueueKind;
  /** The format watched: instant, DVD or Blu-ray. */
  format: string;
  /** When the app noticed it (Unix ms). */
  at: number;
  /** `leaving`: when it leaves (Unix seconds). */
  until: number | null;
  read: boolean;
}

/**
 * A title's ref without the service's origin ("/catalog/titles/movies/60000010"): what stays the
 * same when the service's address (its port) changes. Not a URL: returned as it is.
 */
export function titlePath(ref: string): string {
  if (!/^[a-z][a-z\d+.-]*:\/\//i.test(ref)) return ref;
  try {
    const url = new URL(ref);
    return `${url.pathname}${url.search}`;
  } catch {
    return ref;
  }
}

export interface AlertSettings {
  /** Minutes between checks (also on start and when the window gains focus). */
  intervalMinutes: number;
  /** A queued title leaving within this many days is told. */
  leavingDays: number;
  /** Desktop notifications, one per event (grouped when several arrive together). */
  notifications: boolean;
}

export const DEFAULT_ALERT_SETTINGS: Readonly<AlertSettings> = Object.freeze({
  intervalMinutes: 15,
  leavingDays: 7,
  notifications: true,
});

export const alertSettingsSchema = z.object({
  // 0.1 minute (6 s) is for tests and demonstrations; the Settings screen offers 5 minutes and up.
  intervalMinutes: z.number().min(0.1, 'Check at most every 6 seconds.').max(1440, 'Check at least once a day.'),
  leavingDays: z
    .number()
    .int('Days are whole numbers.')
    .min(1, 'Tell at least 1 day ahead.')
    .max(90, 'Tell at most 90 days ahead.'),
  notifications: z.boolean(),
});

export interface AlertList {
  alerts: Alert[];
  unread: number;
}

/** What the core pushes when new alerts were noticed; `notify`: the person wants desktop notifications. */
export interface NewAlerts {
  alerts: Alert[];
  unread: number;
  notify: boolean;
}

/** One notification's words: one event told as itself, several arriving together told as one group. */
export function notificationOf(alerts: readonly Alert[]): { title: string; body: string } {
  if (alerts.length === 1) return { title: headline(alerts[0]!), body: alertWords(alerts[0]!) };
  const names = alerts
    .slice(0, 3)
    .map((a) => a.title)
    .join(', ');
  const more = alerts.length > 3 ? ` and ${alerts.length - 3} more` : '';
  return {
    title: `${alerts.length} availability alerts`,
    body: `${names}${more}. Open Alerts in Marquee to see them.`,
  };
}

function headline(alert: Alert): string {
  return { available: 'Now available', leaving: 'Leaving soon', gone: 'No longer available' }[alert.kind];
}

/** The sentence an alert says, as the Alerts screen and a notification show it. */
export function alertWords(alert: Alert): string {
  const where = alert.queue === 'instant' ? 'to watch instantly' : `on ${alert.format}`;
  if (alert.kind === 'available') return `${alert.title} is now available ${where}.`;
  if (alert.kind === 'leaving')
    return `${alert.title} leaves ${alert.queue === 'instant' ? 'instant watching' : alert.format} on ${dayOf(alert.until)}.`;
  return `${alert.title} is no longer available ${where}.`;
}

/** The day in the person's locale (the renderer's, or the main process's for a notification). */
function dayOf(seconds: number | null): string {
  if (seconds === null) return 'an unknown day';
  return new Date(seconds * 1000).toLocaleDateString(undefined, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}
