import { describe, expect, it } from 'vitest';
import { compareTitles, countOf, formatDate, sortingName } from '../../renderer/words.ts';
import { sortOrder } from '../../renderer/queries/queue-sort.ts';
import { item } from './fixtures.ts';

/** The app's words, each written once (renderer/words.ts): counts, dates in the person's locale, names sorted as a shelf. */
describe('counts', () => {
  it('says "1 title" and "2 titles", with a plural of its own where English has one', () => {
    expect([countOf(0, 'title'), countOf(1, 'title'), countOf(2, 'title')]).toEqual([
      '0 titles',
      '1 title',
      '2 titles',
    ]);
    expect([countOf(1, 'entry', 'entries'), countOf(3, 'person', 'people')]).toEqual(['1 entry', '3 people']);
    expect(countOf(1234, 'edit')).toBe(`${(1234).toLocaleString()} edits`);
  });
});

describe('dates', () => {
  const march12 = Date.UTC(2027, 2, 12) / 1000;
  const locale = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' }).format(new Date(march12 * 1000));

  it('shows a day in the person’s locale, the same from unix seconds, an ISO day or a Date', () => {
    const expected = locale({ day: 'numeric', month: 'short', year: 'numeric' });
    expect(formatDate(march12)).toBe(expected);
    expect(formatDate('2027-03-12')).toBe(expected);
    expect(formatDate(new Date(march12 * 1000))).toBe(expected);
    expect(expected).toMatch(/12/);
    expect(expected).toMatch(/2027/);
  });

  it('leaves out the year when asked and it is this one', () => {
    const now = new Date(Date.UTC(2027, 0, 1));
    expect(formatDate(march12, { year: 'other', now })).toBe(locale({ day: 'numeric', month: 'short' }));
    expect(formatDate(march12, { year: 'other', now: new Date(Date.UTC(2026, 11, 31)) })).toMatch(/2027/);
  });

  it('reads a calendar day in UTC, whatever the time of day the seconds carry', () => {
    expect(formatDate(march12 + 23 * 3600)).toBe(formatDate(march12));
  });
});

describe('names, sorted as a shelf', () => {
  it('passes over a leading "The", "A" or "An" but keeps a name that is only an article', () => {
    expect(['The Matrix', 'A Few Good Men', 'An Education', 'Alien', 'A', 'The The'].map(sortingName)).toEqual([
      'Matrix',
      'Few Good Men',
      'Education',
      'Alien',
      'A',
      'The',
    ]);
  });

  it('orders A–Z past the article, case and accents aside, numbers by value', () => {
    const names = [
      'The Matrix',
      'Amélie',
      'an Education',
      'Heat',
      'A Few Good Men',
      'Alien',
      'Ocean’s 12',
      'Ocean’s 8',
    ];
    expect([...names].sort(compareTitles)).toEqual([
      'Alien',
      'Amélie',
      'an Education',
      'A Few Good Men',
      'Heat',
      'The Matrix',
      'Ocean’s 8',
      'Ocean’s 12',
    ]);
  });

  it('is how the queue’s Sort by title orders', () => {
    const titled = (ref: string, title: string) => ({ ...item(ref, 1), title });
    const items = [titled('m', 'The Matrix'), titled('a', 'Alien'), titled('h', 'Heat'), titled('f', 'A Few Good Men')];
    expect(sortOrder(items, 'title', new Map())).toEqual(['a', 'f', 'h', 'm']);
  });
});
