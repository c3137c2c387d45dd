import { describe, expect, test } from 'vitest';
import type { Availability, QueueItem, TitleDetail } from '../../shared/models.ts';
import {
  arrivalDay,
  formatTickDate,
  inDays,
  leavingDay,
  markWords,
  stackLevels,
  timelineMarks,
  timelineSummary,
} from '../../renderer/components/queue/timeline-marks.ts';
import { item } from './fixtures.ts';

const DAY = 86_400;
/** 2026-11-25 15:00 UTC. */
const NOW = Date.parse('2026-11-25T15:00:00Z') / 1000;
const TODAY = Date.parse('2026-11-25T00:00:00Z') / 1000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

const leaving = (ref: string, position: number, daysAway: number): QueueItem => ({
  ...item(ref, position),
  availability: `available until ${iso(TODAY + daysAway * DAY)}`,
});
const saved = (ref: string): QueueItem => item(ref, null);
const detail = (...availability: Availability[]) => ({ availability }) as TitleDetail;

describe('the queue timeline’s marks', () => {
  test('leavingDay reads the queue’s "available until" words; other words leave nothing', () => {
    expect(leavingDay('available until 2026-12-01')).toBe(Date.parse('2026-12-01T00:00:00Z') / 1000);
    expect(leavingDay('available now')).toBeNull();
    expect(leavingDay('saved')).toBeNull();
    expect(leavingDay('awaiting release')).toBeNull();
  });

  test('arrivalDay takes the window of the queue’s format only (a disc date is no answer for streaming), else none', () => {
    const instant = { format: 'instant', from: NOW + 10 * DAY, until: null };
    const dvd = { format: 'DVD', from: NOW + 3 * DAY, until: null };
    expect(arrivalDay(saved('s'), detail(dvd, instant), NOW)).toBe(instant.from);
    expect(arrivalDay(saved('s'), detail(dvd), NOW)).toBeNull();
    expect(arrivalDay({ ...saved('d'), format: 'Blu-ray' }, detail(dvd, instant), NOW)).toBe(dvd.from);
    expect(arrivalDay(saved('s'), detail({ format: 'instant', from: NOW - DAY, until: null }), NOW)).toBeNull();
    expect(arrivalDay(saved('s'), undefined, NOW)).toBeNull();
  });

  test('marks titles leaving within 90 days and waiting titles arriving within them, by date', () => {
    const items = [
      leaving('a', 1, 40),
      { ...item('b', 2) },
      leaving('c', 3, 5),
      leaving('far', 4, 91),
      leaving('gone', 5, -1),
      saved('s'),
      saved('later'),
      saved('unknown'),
    ];
    const details = new Map([
      ['s', detail({ format: 'instant', from: NOW + 12 * DAY, until: null })],
      ['later', detail({ format: 'instant', from: NOW + 120 * DAY, until: null })],
    ]);
    const marks = timelineMarks(items, details, NOW);
    expect(marks.map((m) => [m.ref, m.kind, m.days])).toEqual([
      ['c', 'leaving', 5],
      ['s', 'arriving', 12],
      ['a', 'leaving', 40],
    ]);
  });

  test('a queued title awaiting its release arrives rather than leaves', () => {
    const awaiting = { ...item('w', 1), availability: 'awaiting release' };
    const marks = timelineMarks(
      [awaiting],
      new Map([['w', detail({ format: 'instant', from: NOW + 2 * DAY, until: NOW + 400 * DAY })]]),
      NOW,
    );
    expect(marks.map((m) => [m.ref, m.kind, m.days])).toEqual([['w', 'arriving', 2]]);
  });

  test('a title leaving today is still marked; the 90th day is the last one shown', () => {
    const marks = timelineMarks([leaving('today', 1, 0), leaving('edge', 2, 90)], new Map(), NOW);
    expect(marks.map((m) => [m.ref, m.days])).toEqual([
      ['today', 0],
      ['edge', 90],
    ]);
  });

  test('says each fact in words, with the day counted from today', () => {
    const [mark] = timelineMarks([{ ...leaving('x', 1, 5), title: 'Alien' }], new Map(), NOW);
    expect(markWords(mark!)).toMatch(/^Leaving in 5 days: Alien \((30 Nov|Nov 30)\)$/);
    expect([inDays(0), inDays(1), inDays(12)]).toEqual(['today', 'tomorrow', 'in 12 days']);
    const [arriving] = timelineMarks(
      [{ ...saved('s'), title: 'Heat' }],
      new Map([['s', detail({ format: 'instant', from: NOW + DAY, until: null })]]),
      NOW,
    );
    expect(markWords(arriving!)).toMatch(/^Arriving tomorrow: Heat \(/);
  });

  test('timelineSummary counts each kind, leaving out a kind with none', () => {
    const marks = timelineMarks(
      [leaving('a', 1, 3), leaving('b', 2, 4), saved('s')],
      new Map([['s', detail({ format: 'instant', from: NOW + DAY, until: null })]]),
      NOW,
    );
    expect(timelineSummary(marks)).toBe('2 leaving · 1 arriving');
    expect(timelineSummary(marks.filter((m) => m.kind === 'leaving'))).toBe('2 leaving');
    expect(timelineMarks([], new Map(), NOW)).toEqual([]);
  });

  test('stackLevels lifts a mark crowding one already placed, and reuses a level once there is room', () => {
    expect(stackLevels([0, 5, 8, 30, 33, 60], 12)).toEqual([0, 1, 2, 0, 1, 0]);
    expect(stackLevels([], 12)).toEqual([]);
  });

  test('formatTickDate names the year only on the first tick of a new one', () => {
    const now = new Date(NOW * 1000);
    const ticks = ['2026-12-20', '2026-12-27', '2027-01-03', '2027-01-10'].map(
      (d) => Date.parse(`${d}T00:00:00Z`) / 1000,
    );
    const labels = ticks.map((t, i) => formatTickDate(t, i > 0 ? ticks[i - 1] : undefined, now));
    expect(labels).toEqual(['Dec 20', 'Dec 27', 'Jan 3, 2027', 'Jan 10']);
    expect(formatTickDate(ticks[3]!, undefined, now)).toBe('Jan 10, 2027'); // a first tick in another year
  });
});
