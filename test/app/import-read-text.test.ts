import { describe, expect, it } from 'vitest';
import { decide } from '../../electron/core/import/match-decide.ts';
import { readImportFile } from '../../electron/core/import/read-file.ts';
import { importEntry, movieCandidate } from '../helpers/import-candidate.ts';

/**
 * Plain-text lists as people write them in notes (numbering, bullets, a bare year at the end) and
 * the matcher's answer when a year read off a name may be part of it. No service: the reader and
 * the decision rules alone.
 */
describe('a plain text list as people write it', () => {
  it('reads lines as people write them in notes: mixed numbering and bullets, a trailing bare year', () => {
    const read = readImportFile(
      'My films\n1. Heat (1995)\n2) Heat 1995\n- Alien\nAlien 1979\n* Fargo, 1996\n3. Ran - 1985\n4 - Brazil\n',
    );
    expect(read.entries.map((e) => [e.line, e.title, e.year])).toEqual([
      [1, 'My films', null],
      [2, 'Heat', 1995],
      [3, 'Heat', 1995],
      [4, 'Alien', null],
      [5, 'Alien', 1979],
      [6, 'Fargo', 1996],
      [7, 'Ran', 1985],
      [8, 'Brazil', null],
    ]);
    expect(read.skipped).toEqual([]);
  });

  it('keeps a number that is the whole name, or a year too far ahead to be a release, in the title', () => {
    const thisYear = new Date().getUTCFullYear();
    const read = readImportFile(`1917\n2. 2001\nBlade Runner 2049\nSoon ${thisYear + 1}\nBrazil 1985 (1985)\n`);
    expect(read.entries.map((e) => [e.title, e.year])).toEqual([
      ['1917', null],
      ['2001', null],
      ['Blade Runner 2049', null],
      ['Soon', thisYear + 1],
      ['Brazil 1985', 1985],
    ]);
  });
});

describe('a year read off the end of a name', () => {
  const title = movieCandidate;
  const entry = importEntry;

  it('takes a year read off a name as part of it when the catalog has that name ("Death Race 2000")', () => {
    const deathRace2000 = title(8, 'Death Race 2000', 1975);
    expect(decide(entry('Death Race', 2000), [title(9, 'Death Race', 2008), deathRace2000])).toMatchObject({
      status: 'matched',
      ref: deathRace2000.ref,
      reason: 'Same title: the year is part of its name',
    });
    // Both readings fit a title: the person says which.
    const both = decide(entry('Death Race', 2000), [title(9, 'Death Race', 2000), deathRace2000]);
    expect([both.status, both.candidates.map((c) => c.ref)]).toEqual([
      'choice',
      [deathRace2000.ref, 'http://s/catalog/titles/movies/9'],
    ]);
  });
});
