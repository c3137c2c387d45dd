/**
 * What the queue's "next 90 days" timeline shows, decided apart from drawing it: which queued
 * titles leave (the queue's own "available until" words, as the availability badge reads them)
 * and which saved or awaiting titles arrive (their format's window in the title's availability),
 * and the same facts in words. Days are counted in UTC, like every date the queue screen shows.
 */
import type { QueueItem, TitleDetail } from '../../../shared/models.ts';
import { queueRelease } from './saved-release.ts';
import { compareTitles, formatDate } from '../../words.ts';

export const TIMELINE_DAYS = 90;
const DAY = 86_400;

export type MarkKind = 'leaving' | 'arriving';

export interface TimelineMark {
  ref: string;
  title: string;
  kind: MarkKind;
  /** Unix seconds: the day it leaves (the last day of its window, as the queue says it) or arrives. */
  date: number;
  /** Whole days from today (0: today). */
  days: number;
}

const startOfDay = (seconds: number) => Math.floor(seconds / DAY) * DAY;

/** The day an "available until 2026-12-01" entry leaves, in unix seconds; null for any other words. */
export function leavingDay(availability: string): number | null {
  const until = /until (\d{4}-\d{2}-\d{2})/.exec(availability)?.[1];
  return until ? Date.parse(`${until}T00:00:00Z`) / 1000 : null;
}

/** Whether an entry waits for its release: saved for later, or queued before its window opens. */
export function isWaiting(item: QueueItem): boolean {
  return item.position === null || /awaiting/.test(item.availability);
}

/**
 * The day a waiting entry arrives: when the window of the format its queue is for opens (see
 * saved-release.ts); null when none is announced or it is open already.
 */
export function arrivalDay(item: QueueItem, detail: TitleDetail | undefined, now: number): number | null {
  const kind = item.format.toLowerCase() === 'instant' ? 'instant' : 'disc';
  const release = queueRelease(detail?.availability ?? [], kind, item.format, now);
  return release.openFormat === null ? release.from : null;
}

/**
 * Marks for the next `days` days from `now`: queued titles that leave and waiting titles that
 * arrive, by date (then title). `details` are the waiting titles' details, by ref, as loaded so far.
 */
export function timelineMarks(
  items: readonly QueueItem[],
  details: ReadonlyMap<string, TitleDetail>,
  now: number,
  days = TIMELINE_DAYS,
): TimelineMark[] {
  const today = startOfDay(now);
  const end = today + days * DAY;
  const marks: TimelineMark[] = [];
  const add = (item: QueueItem, kind: MarkKind, date: number | null) => {
    if (date === null || date < today || date > end) return;
    marks.push({ ref: item.ref, title: item.title, kind, date, days: Math.round((startOfDay(date) - today) / DAY) });
  };
  for (const item of items) {
    if (isWaiting(item)) add(item, 'arriving', arrivalDay(item, details.get(item.ref), now));
    else add(item, 'leaving', leavingDay(item.availability));
  }
  return marks.sort((a, b) => a.date - b.date || compareTitles(a.title, b.title));
}

/** "1 Dec" (the year only when it is the next one: the timeline spans 90 days). */
export function formatShortDate(seconds: number): string {
  return formatDate(seconds, { year: 'other' });
}

/**
 * An axis tick: "Dec 6"; the year only on the first tick of another year than the one before it
 * ("Dec 27", "Jan 3, 2027", "Jan 10"). A year on every tick made labels wider than the ticks' gap.
 */
export function formatTickDate(seconds: number, previousSeconds: number | undefined, now = new Date()): string {
  return formatDate(seconds, {
    year: 'other',
    now: previousSeconds === undefined ? now : new Date(previousSeconds * 1000),
  });
}

/** "today", "tomorrow", "in 5 days". */
export function inDays(days: number): string {
  return days <= 0 ? 'today' : days === 1 ? 'tomorrow' : `in ${days} days`;
}

/** "Leaving in 5 days: Alien (1 Dec)" / "Arriving tomorrow: Heat (2 Dec)". */
export function markWords(mark: TimelineMark): string {
  const verb = mark.kind === 'leaving' ? 'Leaving' : 'Arriving';
  return `${verb} ${inDays(mark.days)}: ${mark.title} (${formatShortDate(mark.date)})`;
}

/**
 * Stack levels for marks at x positions (in the marks' order): a mark closer than `gap` to one
 * already on a level goes up a level, so marks on nearby days stay apart. Levels are 0-based.
 */
export function stackLevels(xs: readonly number[], gap: number): number[] {
  const lastOnLevel: number[] = [];
  return xs.map((x) => {
    let level = lastOnLevel.findIndex((last) => x - last >= gap);
    if (level === -1) level = lastOnLevel.length;
    lastOnLevel[level] = x;
    return level;
  });
}

/** "3 leaving · 2 arriving" (a part left out when none). */
export function timelineSummary(marks: readonly TimelineMark[]): string {
  const leaving = marks.filter((m) => m.kind === 'leaving').length;
  const arriving = marks.length - leaving;
  return [leaving && `${leaving} leaving`, arriving && `${arriving} arriving`].filter(Boolean).join(' · ');
}
