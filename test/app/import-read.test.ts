import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvLine, parseCsv } from '../../shared/pure/csv.ts';
import { decide } from '../../electron/core/import/match-decide.ts';
import { initialOptions, initialRows, ratingsToSet, refsToQueue } from '../../renderer/screens/import/review-state.ts';
import { readImportFile } from '../../electron/core/import/read-file.ts';
import { importEntry, movieCandidate } from '../helpers/import-candidate.ts';
import { searchTermOf, titleKey } from '../../shared/protocol/title-key.ts';

/** Reading lists (every kind told from its content), the CSV reader, the title key and the decision rules, without a service. */
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'import');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

describe('the CSV reader', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, a BOM and CRLF', () => {
    const text = '\uFEFFName,Note\r\n"Godfather, The","He said ""no"",\r\nthen left"\r\nAlien,\r\n';
    expect(parseCsv(text)).toEqual([
      ['Name', 'Note'],
      ['Godfather, The', 'He said "no",\r\nthen left'],
      ['Alien', ''],
    ]);
  });

  it('takes the separator the header uses (semicolon, tab) and a last line without its end', () => {
    expect(parseCsv('Title;Year\nAlien;1979')).toEqual([
      ['Title', 'Year'],
      ['Alien', '1979'],
    ]);
    expect(parseCsv('Title\tYear\nAlien\t1979')).toEqual([
      ['Title', 'Year'],
      ['Alien', '1979'],
    ]);
  });

  it('writes what it reads back: quoting only fields that need it', () => {
    const fields = ['Godfather, The', 'He said "no"', 'plain', ' padded'];
    expect(csvLine(fields)).toBe('"Godfather, The","He said ""no""",plain," padded"');
    expect(parseCsv(csvLine(fields))).toEqual([fields]);
  });
});

describe('the title key', () => {
  it('sets aside case, accents, punctuation, apostrophes, "&" and a leading or moved article', () => {
    const same = (a: string, b: string) => expect(titleKey(a), `${a} ~ ${b}`).toBe(titleKey(b));
    same('Godfather, The', 'The Godfather');
    same('THE GODFATHER', 'godfather');
    same('Amelie', 'Amélie');
    same('Bill and Teds Excellent Adventure', "Bill & Ted's Excellent Adventure");
    same('Leon The Professional', 'Léon: The Professional');
    same('Samourai, Le', 'Le Samouraï');
    expect(titleKey('A Few Good Men')).toBe('few good men');
    expect(titleKey('Psycho')).not.toBe(titleKey('Psycho II'));
  });

  it('searches with the words the catalog indexes: no "and", no leading article, apostrophes split', () => {
    expect(searchTermOf('Godfather, The')).toBe('godfather');
    expect(searchTermOf('Beauty & the Beast')).toBe('beauty the beast');
    expect(searchTermOf("Bill & Ted's Excellent Adventure")).toBe('bill ted s excellent adventure');
  });
});

describe('reading a list from its content', () => {
  it('knows each fixture by its content, whatever its name, with every entry and year', () => {
    const lb = readImportFile(fixture('letterboxd-watchlist.csv'));
    expect([lb.source, lb.label, lb.entries.length, lb.isList, lb.hasRatings]).toEqual([
      'letterboxd-watchlist',
      'Letterboxd watchlist',
      62,
      true,
      false,
    ]);
    expect(lb.entries.find((e) => e.title === 'Crash')).toMatchObject({ year: null, line: 3 });
    const imdb = readImportFile(fixture('imdb-watchlist.csv'));
    expect([imdb.source, imdb.entries.length]).toEqual(['imdb-list', 61]);
    expect(imdb.entries.every((e) => e.type === 'movie')).toBe(true);
    const text = readImportFile(fixture('plain-list.txt'));
    expect([text.source, text.entries.length]).toEqual(['text', 66]);
    expect(text.entries.find((e) => e.title === 'Peter Pan')?.year).toBeNull();
    expect(text.entries.some((e) => e.title.startsWith('-') || e.title.startsWith('#'))).toBe(false);
  });

  it('reads Letterboxd ratings and diaries as ratings (halves rounded), one entry per film', () => {
    const ratings = readImportFile(
      'Date,Name,Year,Letterboxd URI,Rating\n2024-01-01,Alien,1979,https://boxd.it/a,4.5\n2024-01-02,Heat,1995,https://boxd.it/b,0.5\n',
    );
    expect([ratings.source, ratings.isList, ratings.hasRatings]).toEqual(['letterboxd-ratings', false, true]);
    expect(ratings.entries.map((e) => [e.title, e.rating, e.listed])).toEqual([
      ['Alien', 5, false],
      ['Heat', 1, false],
    ]);
    const diary = readImportFile(
      'Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n' +
        '2024-01-01,Alien,1979,u,3,,,2024-01-01\n2024-02-01,Heat,1995,u,,,,2024-02-01\n2024-03-01,Alien,1979,u,4,Yes,,2024-03-01\n',
    );
    expect(diary.source).toBe('letterboxd-diary');
    expect(diary.entries.map((e) => [e.title, e.rating])).toEqual([
      ['Alien', 4],
      ['Heat', null],
    ]);
  });

  it('reads a Letterboxd list export past its own header line', () => {
    const list = readImportFile(
      'Letterboxd list export v7\nDate,Name,Tags,URL,Description\n2024-01-01,Best,,https://boxd.it/l,"Mine, all mine"\n\nPosition,Name,Year,URL,Description\n1,Alien,1979,u,\n2,Heat,1995,u,\n',
    );
    expect([list.source, list.entries.map((e) => e.title)]).toEqual(['letterboxd-list', ['Alien', 'Heat']]);
  });

  it('reads IMDb ratings out of 10 and series as series', () => {
    const file = readImportFile(
      'Const,Your Rating,Date Rated,Title,URL,Title Type,Year\ntt1,9,2024-01-01,Alien,u,Movie,1979\ntt2,3,2024-01-01,Harbor Lights,u,TV Series,2009–2012\n',
    );
    expect(file.source).toBe('imdb-ratings');
    expect(file.entries.map((e) => [e.title, e.rating, e.type, e.year])).toEqual([
      ['Alien', 5, 'movie', 1979],
      ['Harbor Lights', 2, 'series', 2009],
    ]);
  });

  it('reads Marquee’s own CSV columns; with ratings it is a ratings file', () => {
    const queue = readImportFile('Title,Year,Rating,WatchedDate,imdbID\nAlien,1979,,,\n"Godfather, The",1972,,,\n');
    expect([queue.source, queue.isList, queue.entries.map((e) => e.title)]).toEqual([
      'csv',
      true,
      ['Alien', 'Godfather, The'],
    ]);
    const rated = readImportFile('Title,Year,Rating,WatchedDate,imdbID\nAlien,1979,4,,\n');
    expect([rated.isList, rated.entries[0]!.rating]).toEqual([false, 4]);
  });

  it('reads a plain list: numbering, bullets, years in brackets, a title that is a number', () => {
    expect(
      readImportFile('1. Alien (1979)\n2. 9 Songs\n3) Heat [1995]\n').entries.map((e) => [e.title, e.year]),
    ).toEqual([
      ['Alien', 1979],
      ['9 Songs', null],
      ['Heat', 1995],
    ]);
    expect(readImportFile('9 Songs\n2001: A Space Odyssey (1968)\n').entries.map((e) => e.title)).toEqual([
      '9 Songs',
      '2001: A Space Odyssey',
    ]);
  });

  it('reads a queue feed and a queue’s XML with their refs and kind', () => {
    const atom = readImportFile(
      '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><id>http://s/users/u/queues/disc</id><title>Q</title>' +
        '<entry><id>http://s/users/u/queues/disc/available/1/7</id><title>1- Alien &amp; Co</title><link rel="alternate" href="http://s/catalog/titles/movies/7"/></entry></feed>',
    );
    expect([atom.source, atom.kind, atom.entries[0]]).toEqual([
      'queue-atom',
      'disc',
      expect.objectContaining({ title: 'Alien & Co', ref: 'http://s/catalog/titles/movies/7' }),
    ]);
    const pox = readImportFile(
      '<?xml version="1.0" standalone="yes"?><queue><url_template>http://s/users/u/queues/instant?{-join}</url_template><number_of_results>2</number_of_results>' +
        '<queue_item><id>http://s/users/u/queues/instant/available/2/8</id><position>2</position><link href="http://s/catalog/titles/movies/8" rel="http://schemas.netflix.com/catalog/title" title="Heat"/><title short="Heat" regular="Heat"/><release_year>1995</release_year></queue_item>' +
        '<queue_item><id>http://s/users/u/queues/instant/available/1/7</id><position>1</position><link href="http://s/catalog/titles/movies/7" rel="http://schemas.netflix.com/catalog/title" title="Alien"/><title short="Alien" regular="Alien"/><release_year>1979</release_year></queue_item></queue>',
    );
    expect([pox.source, pox.kind, pox.entries.map((e) => [e.title, e.year, e.ref])]).toEqual([
      'queue-xml',
      'instant',
      [
        ['Alien', 1979, 'http://s/catalog/titles/movies/7'],
        ['Heat', 1995, 'http://s/catalog/titles/movies/8'],
      ],
    ]);
  });

  it('refuses what it cannot use in words, whatever the file is called', () => {
    const refusal = (text: string) => {
      try {
        readImportFile(text);
        return 'read';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refusal('   \n')).toBe('The file is empty.');
    expect(refusal('<ratings><x/></ratings>')).toMatch(/is a <ratings>, not a queue/);
    expect(refusal('<queue><unclosed>')).toBe('Marquee read this file as a Queue (XML) but found no titles in it.');
    expect(refusal('{"hello": 1}')).toMatch(/not a Marquee export/);
    expect(refusal('{"format":"marquee-export","version":9}')).toMatch(/version 9/);
    expect(refusal('Title,Year\n')).toBe('Marquee read this file as a CSV list but found no titles in it.');
    expect(refusal(Array.from({ length: 1001 }, (_, i) => `Film ${i}`).join('\n'))).toMatch(/lists 1,001 titles/);
  });
});

describe('deciding which title an entry means', () => {
  const title = movieCandidate;
  const entry = importEntry;
  const kongs = [title(1, 'King Kong', 1933), title(2, 'King Kong', 1976), title(3, 'King Kong', 2005)];

  it('matches the one title of the same name and year, or a year one off when no other is as close', () => {
    expect(decide(entry('king kong', 1976), kongs)).toMatchObject({ status: 'matched', ref: kongs[1]!.ref });
    expect(decide(entry('King Kong', 2006), kongs)).toMatchObject({
      status: 'matched',
      ref: kongs[2]!.ref,
      reason: 'Same title; the catalog says 2005',
    });
  });

  it('asks when several share the name and no year decides, or the year is further off', () => {
    expect(decide(entry('King Kong', null), kongs)).toMatchObject({
      status: 'choice',
      reason: '3 titles share this name',
    });
    expect(decide(entry('King Kong', 1990), kongs).status).toBe('choice');
    expect(decide(entry('Heat', 1995), [title(4, 'Heat', 1995), title(5, 'Heat', 1995)])).toMatchObject({
      status: 'choice',
      reason: '2 titles share this name and year',
    });
    expect(decide(entry('Heat', 1996), [title(4, 'Heat', 1995), title(5, 'Heat', 1997)]).status).toBe('choice');
  });

  it('matches a lone title when the file gives no year, but asks when the file says it is another type', () => {
    expect(decide(entry('Heat', null), [title(4, 'Heat', 1995)]).status).toBe('matched');
    expect(decide(entry('Heat', 1995, { type: 'series' }), [title(4, 'Heat', 1995)]).status).toBe('choice');
  });

  it('offers a similar name (a subtitle) and finds nothing close for an unrelated one', () => {
    const leon = title(6, 'Léon: The Professional', 1994);
    expect(decide(entry('Leon', 1994), [leon])).toMatchObject({ status: 'choice', ref: null, candidates: [leon] });
    expect(decide(entry('Us', 2019), [title(7, 'The Usual Suspects', 1995)])).toMatchObject({
      status: 'missing',
      candidates: [],
    });
  });

  it('matches by the service’s ref before anything else', () => {
    expect(decide(entry('Anything', null, { ref: kongs[0]!.ref }), kongs)).toMatchObject({
      status: 'matched',
      ref: kongs[0]!.ref,
    });
  });
});

describe('the review (renderer/screens/import/review-state.ts)', () => {
  const file = readImportFile('Title,Year,Rating\nAlien,1979,4\nHeat,1995,5\nAlien,1979,2\nUnknown,2020,3\n');
  const match = (ref: string | null) => ({
    status: ref ? ('matched' as const) : ('missing' as const),
    ref,
    candidates: [],
    reason: '',
  });
  const rows = initialRows(file, [match('a'), match('h'), match('a'), match(null)]);

  it('starts from the matcher: certain matches chosen, the rest not; a ratings file sets ratings and adds nothing', () => {
    expect(rows.map((r) => r.chosen)).toEqual(['a', 'h', 'a', null]);
    const options = initialOptions(file, 'disc');
    expect(options).toEqual({
      kind: 'disc',
      placement: 'bottom',
      addToQueue: false,
      setRatings: true,
      otherQueue: false,
    });
    expect(refsToQueue(rows, options)).toEqual([]);
    expect(ratingsToSet(rows, options)).toEqual([
      { ref: 'a', rating: 2 },
      { ref: 'h', rating: 5 },
    ]);
  });

  it('queues each chosen title once, in the file’s order, leaving out skipped rows', () => {
    const list = readImportFile('Alien (1979)\nHeat (1995)\nAlien\nUnknown\n');
    const listRows = initialRows(list, [match('a'), match('h'), match('a'), match(null)]);
    const options = initialOptions(list, undefined);
    expect([options.kind, options.addToQueue, options.setRatings]).toEqual(['instant', true, false]);
    expect(refsToQueue(listRows, options)).toEqual(['a', 'h']);
    expect(refsToQueue([{ ...listRows[0]!, chosen: null }, ...listRows.slice(1)], options)).toEqual(['h', 'a']);
  });
});
