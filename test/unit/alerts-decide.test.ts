import { describe, expect, it } from 'vitest';
import { decide, fresh, keepNewest, observe, type Watched } from '../../electron/core/alerts/index.ts';
import { alertWords, notificationOf, type Alert } from '../../shared/alerts.ts';

/** The watcher's decisions: which events a before/after pair of observations makes, each told once. */
const NOW = 1_800_000_000;
const DAY = 86_400;
const item: Watched = {
  ref: 'http://svc/catalog/titles/movies/1',
  path: '/catalog/titles/movies/1',
  title: 'Heat',
  queue: 'instant',
  format: 'instant',
};

describe('observe', () => {
  it('reads a format as waiting, available (with its end) or gone', () => {
    expect(observe([{ format: 'instant', from: NOW + 10, until: null }], 'instant', NOW)).toEqual({
      state: 'waiting',
      until: null,
    });
    expect(observe([{ format: 'instant', from: NOW - 10, until: NOW + DAY }], 'instant', NOW)).toEqual({
      state: 'available',
      until: NOW + DAY,
    });
    expect(observe([{ format: 'instant', from: NOW - 10, until: NOW }], 'instant', NOW)).toEqual({
      state: 'gone',
      until: NOW,
    });
    expect(observe([{ format: 'DVD', from: NOW - 10, until: null }], 'instant', NOW)).toEqual({
      state: 'gone',
      until: null,
    });
    expect(observe(null, 'instant', NOW)).toEqual({ state: 'gone', until: null });
  });
});

describe('decide', () => {
  const kinds = (...args: Parameters<typeof decide>) => decide(...args).map((d) => d.kind);

  it('a title seen waiting and now available is told available; one first seen available is not', () => {
    expect(kinds(item, { state: 'waiting', until: null }, { state: 'available', until: null }, NOW, 7)).toEqual([
      'available',
    ]);
    expect(kinds(item, undefined, { state: 'available', until: null }, NOW, 7)).toEqual([]);
    expect(kinds(item, { state: 'available', until: null }, { state: 'available', until: null }, NOW, 7)).toEqual([]);
  });

  it('a title leaving within the days set is told leaving, with when; later, not', () => {
    const [leaving] = decide(item, undefined, { state: 'available', until: NOW + 3 * DAY }, NOW, 7);
    expect(leaving).toMatchObject({
      kind: 'leaving',
      until: NOW + 3 * DAY,
      title: 'Heat',
      queue: 'instant',
      format: 'instant',
    });
    expect(kinds(item, undefined, { state: 'available', until: NOW + 8 * DAY }, NOW, 7)).toEqual([]);
    expect(kinds(item, undefined, { state: 'available', until: NOW + 8 * DAY }, NOW, 10)).toEqual(['leaving']);
  });

  it('a title gone is told once: not when it was already seen gone', () => {
    expect(kinds(item, { state: 'available', until: null }, { state: 'gone', until: null }, NOW, 7)).toEqual(['gone']);
    expect(kinds(item, undefined, { state: 'gone', until: null }, NOW, 7)).toEqual(['gone']);
    expect(kinds(item, { state: 'gone', until: null }, { state: 'gone', until: null }, NOW, 7)).toEqual([]);
  });

  it("an event's identity is the title's path, never the service's address", () => {
    const moved: Watched = { ...item, ref: 'http://127.0.0.1:40123/catalog/titles/movies/1' };
    const at = (w: Watched) => decide(w, undefined, { state: 'available', until: NOW + DAY }, NOW, 7)[0]!;
    expect(at(moved).id).toBe(at(item).id);
    expect(at(moved).id).not.toMatch(/http|svc|40123/);
    expect(at(moved)).toMatchObject({ path: '/catalog/titles/movies/1' });
  });

  it('a new closing time is a new event; the same one is the same event', () => {
    const a = decide(item, undefined, { state: 'available', until: NOW + DAY }, NOW, 7)[0]!;
    const b = decide(item, undefined, { state: 'available', until: NOW + 2 * DAY }, NOW, 7)[0]!;
    const c = decide(
      item,
      { state: 'available', until: NOW + DAY },
      { state: 'available', until: NOW + DAY },
      NOW + 100,
      7,
    )[0]!;
    expect(a.id).not.toBe(b.id);
    expect(c.id).toBe(a.id);
  });
});

describe('fresh', () => {
  it('keeps only events never told, each once', () => {
    const d = decide(item, undefined, { state: 'gone', until: null }, NOW, 7);
    expect(fresh([...d, ...d], new Set(), 5).map((a) => a.id)).toEqual([d[0]!.id]);
    expect(fresh(d, new Set([d[0]!.id]), 5)).toEqual([]);
    expect(fresh(d, new Set(), 5)[0]).toMatchObject({ at: 5, read: false });
  });

  it('keepNewest keeps the end of the list', () => {
    expect(keepNewest([1, 2, 3, 4], 2)).toEqual([3, 4]);
    expect(keepNewest([1], 2)).toEqual([1]);
  });
});

describe('notifications', () => {
  const alert = (title: string, kind: Alert['kind']): Alert => ({
    id: title,
    kind,
    ref: title,
    title,
    queue: 'instant',
    format: 'instant',
    at: 0,
    until: NOW + DAY,
    read: false,
  });

  it('one event is told as itself; several arriving together as one group', () => {
    expect(notificationOf([alert('Heat', 'available')])).toEqual({
      title: 'Now available',
      body: 'Heat is now available to watch instantly.',
    });
    const group = notificationOf(['A', 'B', 'C', 'D', 'E'].map((t) => alert(t, 'gone')));
    expect(group).toEqual({
      title: '5 availability alerts',
      body: 'A, B, C and 2 more. Open Alerts in Marquee to see them.',
    });
    const day = new Date(alert('Heat', 'leaving').until! * 1000).toLocaleDateString(undefined, {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    expect(alertWords(alert('Heat', 'leaving'))).toBe(`Heat leaves instant watching on ${day}.`);
  });
});
