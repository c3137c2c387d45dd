import { describe, expect, test } from 'vitest';
import { queueFormats, queueRelease } from '../../renderer/components/queue/saved-release.ts';

const DAY = 86_400;
const NOW = Date.parse('2026-11-27T12:00:00Z') / 1000;
const instant = (from: number, until: number | null = null) => ({ format: 'instant', from, until });
const dvd = (from: number, until: number | null = null) => ({ format: 'DVD', from, until });
const bluRay = (from: number, until: number | null = null) => ({ format: 'Blu-ray', from, until });

describe('a saved title’s release for its queue', () => {
  test('the instant queue takes the streaming date, not an earlier Blu-ray date', () => {
    const release = queueRelease([bluRay(NOW + 7 * DAY), instant(NOW + 68 * DAY)], 'instant', 'instant', NOW);
    expect(release).toEqual({ openFormat: null, from: NOW + 68 * DAY });
  });

  test('the disc queue takes the first disc date, never the streaming date', () => {
    const windows = [instant(NOW + 2 * DAY), bluRay(NOW + 30 * DAY), dvd(NOW + 20 * DAY)];
    expect(queueRelease(windows, 'disc', 'Blu-ray', NOW)).toEqual({ openFormat: null, from: NOW + 20 * DAY });
  });

  test('an open window of the queue’s format says it can be queued now, in that format', () => {
    expect(queueRelease([instant(NOW - DAY), bluRay(NOW + DAY)], 'instant', 'instant', NOW)).toEqual({
      openFormat: 'instant',
      from: NOW - DAY,
    });
    expect(queueRelease([bluRay(NOW + DAY), dvd(NOW - DAY)], 'disc', 'Blu-ray', NOW).openFormat).toBe('DVD');
  });

  test('the entry’s own disc comes first when both are open', () => {
    expect(queueRelease([dvd(NOW - DAY), bluRay(NOW - DAY)], 'disc', 'Blu-ray', NOW).openFormat).toBe('Blu-ray');
  });

  test('an ended window, another format only, or nothing known: no date', () => {
    expect(queueRelease([instant(NOW - 9 * DAY, NOW - DAY)], 'instant', 'instant', NOW)).toEqual({
      openFormat: null,
      from: null,
    });
    expect(queueRelease([dvd(NOW + DAY)], 'instant', 'instant', NOW).from).toBeNull();
    expect(queueRelease([], 'disc', 'DVD', NOW)).toEqual({ openFormat: null, from: null });
  });

  test('the formats of each queue, the entry’s own first', () => {
    expect(queueFormats('instant', 'instant')).toEqual(['instant']);
    expect(queueFormats('disc', 'Blu-ray')).toEqual(['Blu-ray', 'DVD']);
    expect(queueFormats('disc', 'DVD')).toEqual(['DVD', 'Blu-ray']);
  });
});
