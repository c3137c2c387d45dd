import { describe, expect, it } from 'vitest';
import type { Alert } from '../../shared/alerts.ts';
import type { Queue, QueueItem, TitleState } from '../../shared/models.ts';
import { alertOffers, standingWords } from '../../renderer/screens/alerts/alert-offers.ts';

/** An alert offers only what can work now, read from the queue and the title's states, matched by path. */
const alert = (kind: Alert['kind']): Alert => ({
  id: `${kind} instant instant /catalog/titles/movies/7`,
  kind,
  ref: 'http://127.0.0.1:40001/catalog/titles/movies/7',
  title: 'Alien',
  queue: 'instant',
  format: 'instant',
  at: 0,
  until: null,
  read: false,
});
const entry = (position: number | null): QueueItem =>
  ({ ref: 'http://127.0.0.1:40001/catalog/titles/movies/7', position, format: 'instant' }) as QueueItem;
const queue = (...items: QueueItem[]): Queue => ({
  kind: 'instant',
  view: 'all',
  etag: '"1"',
  total: items.length,
  items,
});
const playable: TitleState = {
  ref: 'http://127.0.0.1:40001/catalog/titles/movies/7',
  instant: ['In Queue', 'Play'],
  disc: [],
};
const other = entry(1);
other.ref = 'http://127.0.0.1:40001/catalog/titles/movies/8';

describe('alertOffers', () => {
  it('Move to top only while in the available part and not first; Play only when it streams now', () => {
    expect(alertOffers(alert('leaving'), { queue: queue(other, entry(2)), state: playable })).toMatchObject({
      play: true,
      top: true,
      remove: false,
    });
    expect(alertOffers(alert('leaving'), { queue: queue(entry(1)), state: undefined })).toMatchObject({
      play: false,
      top: false,
    });
    expect(alertOffers(alert('available'), { queue: queue(entry(null)), state: playable }).top).toBe(false);
  });

  it('a title no longer queued offers neither Move to top nor Remove, and says so', () => {
    const gone = alertOffers(alert('gone'), { queue: queue(other), state: undefined });
    expect(gone).toMatchObject({ entry: null, top: false, remove: false, play: false });
    expect(standingWords(alert('gone'), gone, false)).toBe('No longer in your Instant queue.');
    expect(standingWords(alert('gone'), gone, true)).toBe('Removed from your Instant queue.');
  });

  it('a title the catalog no longer has says so by name', () => {
    const offers = alertOffers(alert('gone'), { queue: queue(entry(2)), state: undefined, inCatalog: false });
    expect(standingWords(alert('gone'), offers, false, false)).toBe('Alien is no longer in the catalog.');
    expect(offers.remove).toBe(true);
  });

  it('Remove for a gone title still queued, found at another address of the service', () => {
    const moved = { ...entry(3), ref: 'http://127.0.0.1:40999/catalog/titles/movies/7' };
    expect(alertOffers(alert('gone'), { queue: queue(moved), state: undefined })).toMatchObject({
      remove: true,
      top: false,
    });
  });

  it('nothing is offered while the queue is not read yet', () => {
    const unknown = alertOffers(alert('gone'), { queue: undefined, state: undefined });
    expect(unknown).toMatchObject({ entry: undefined, remove: false, top: false });
    expect(standingWords(alert('gone'), unknown, false)).toBeNull();
  });
});
