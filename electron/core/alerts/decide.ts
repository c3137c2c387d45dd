import type { AlertKind } from '../../../shared/alerts.ts';
import type { Availability, QueueKind } from '../../../shared/models.ts';
import type { Observation, StoredAlert } from '../settings/index.ts';

/**
 * Which events a check found, given what was seen before and what is seen now: small pure
 * functions, no I/O and no clock of their own (times are passed in, Unix seconds).
 */

/** A title in one of the person's queues, in the format that queue holds it in. */
export interface Watched {
  /** Its ref at the service's current address (read by it) and its path (kept by it: the address may change). */
  ref: string;
  path: string;
  title: string;
  queue: QueueKind;
  format: string;
}

const DAY_S = 86_400;

/** The key a title is watched under: one queue, one format, its path (never the service's address). */
export function watchKey(w: Pick<Watched, 'queue' | 'format' | 'path'>): string {
  return `${w.queue} ${w.format} ${w.path}`;
}

/**
 * What a title's windows say of one format at `now`: gone (no title, no window in the format, or
 * the window has closed), waiting (it opens later), or available (with when it closes).
 */
export function observe(windows: readonly Availability[] | null, format: string, now: number): Observation {
  const window = windows?.find((w) => w.format === format);
  if (!window || (window.until !== null && window.until <= now)) return { state: 'gone', until: window?.until ?? null };
  if (window.from > now) return { state: 'waiting', until: window.until };
  return { state: 'available', until: window.until };
}

/** An event as decided: an alert as kept, without the time it was noticed and its read mark. */
export type AlertDraft = Omit<StoredAlert, 'at' | 'read'>;

/**
 * The events of one watched title: it became available (it was seen waiting before); it leaves
 * within `leavingDays` (told once per closing time); it is gone (told once).
 */
export function decide(
  item: Watched,
  before: Observation | undefined,
  after: Observation,
  now: number,
  leavingDays: number,
): AlertDraft[] {
  const drafts: AlertDraft[] = [];
  const event = (kind: AlertKind, until: number | null, id: string): AlertDraft => ({
    id,
    kind,
    path: item.path,
    title: item.title,
    queue: item.queue,
    format: item.format,
    until,
  });
  const key = watchKey(item);
  if (after.state === 'available' && before?.state === 'waiting')
    drafts.push(event('available', null, `available ${key}`));
  if (after.state === 'available' && after.until !== null && after.until - now <= leavingDays * DAY_S)
    drafts.push(event('leaving', after.until, `leaving ${after.until} ${key}`));
  if (after.state === 'gone' && before?.state !== 'gone') drafts.push(event('gone', null, `gone ${key}`));
  return drafts;
}

/** The drafts never told before (by id), each once, noticed at `atMs`. */
export function fresh(drafts: readonly AlertDraft[], seen: ReadonlySet<string>, atMs: number): StoredAlert[] {
  const told = new Set(seen);
  const alerts: StoredAlert[] = [];
  for (const d of drafts) {
    if (told.has(d.id)) continue;
    told.add(d.id);
    alerts.push({ ...d, at: atMs, read: false });
  }
  return alerts;
}

/** The newest `max` of a list kept newest last. */
export function keepNewest<T>(list: readonly T[], max: number): T[] {
  return list.length > max ? list.slice(list.length - max) : [...list];
}
