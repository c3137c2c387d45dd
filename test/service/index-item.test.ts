import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexBatchReader } from '../../service/store/catalog/read.ts';
import type { IndexTitle } from '../../service/model/title.ts';
import type { Db } from '../../service/store/db.ts';
import { indexItemElement } from '../../service/xml/index-element.ts';
import { indexItemWriter } from '../../service/xml/index-item.ts';
import { writeElement } from '../../service/xml/xml.ts';
import { openTestDb, TEST_BASE } from '../helpers/service.ts';

/** Every title of the catalog as the index reads it, a batch at a time. */
async function readAll(db: Db, batch: number): Promise<IndexTitle[]> {
  const read = indexBatchReader(db);
  const all: IndexTitle[] = [];
  for (let titles = await read(0, batch); titles.length > 0; titles = await read(titles[titles.length - 1]!.id, batch))
    all.push(...titles);
  return all;
}

/** The element tree's bytes: what the index wrote before it wrote strings. */
const treeBytes = (base: string, t: IndexTitle) => writeElement(indexItemElement(base, t));

describe('index items written straight to strings', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let titles: IndexTitle[];

  beforeAll(async () => {
    ({ db, drop } = await openTestDb('sqlite'));
    titles = await readAll(db, 250);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it('are byte for byte the element tree’s serialisation for every title of the demo catalog', () => {
    const write = indexItemWriter(TEST_BASE);
    expect(titles.length).toBeGreaterThan(1000);
    const differing = titles.filter((t) => write(t) !== treeBytes(TEST_BASE, t)).map((t) => t.id);
    expect(differing).toEqual([]);
    expect(titles.some((t) => t.cast.length > 0 && t.directors.length > 0 && t.genres.length > 0)).toBe(true);
  });

  it('read in batches of any size the same titles, in id order, with the same credits', async () => {
    const small = await readAll(db, 7);
    expect(small.map((t) => t.id)).toEqual(titles.map((t) => t.id));
    expect(small).toEqual(titles);
    const ids = titles.map((t) => t.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('name a person added while the walk is under way (names are read once per walk, then looked up)', async () => {
    const read = indexBatchReader(db);
    const first = await read(0, 100);
    const later = titles[titles.length - 1]!;
    const k = db.kysely;
    await k.insertInto('people').values({ id: 99_000_001, name: 'Added & "Late"', bio: '' }).execute();
    await k
      .insertInto('credits')
      .values({ title_id: later.id, person_id: 99_000_001, role: 'director', ordinal: 99 })
      .execute();
    try {
      let last: IndexTitle | undefined;
      for (
        let batch = await read(first[first.length - 1]!.id, 1000);
        batch.length > 0;
        batch = await read(batch[batch.length - 1]!.id, 1000)
      )
        last = batch[batch.length - 1];
      expect(last!.id).toBe(later.id);
      expect(last!.directors.at(-1)).toEqual({ id: 99_000_001, name: 'Added & "Late"' });
    } finally {
      await k.deleteFrom('credits').where('person_id', '=', 99_000_001).execute();
      await k.deleteFrom('people').where('id', '=', 99_000_001).execute();
    }
  });

  it('escape text and attributes exactly as the element tree does, and write empty ones alike', () => {
    const base = 'http://host.test/a&b<c>"d"';
    const odd: IndexTitle = {
      id: 7,
      type: 'season',
      series_id: 3,
      title: 'Tom & Jerry <"live"> ]]>',
      release_year: null,
      updated: 0,
      mpaa_rating: 'R&<',
      tv_rating: '',
      genres: ['Drama & "Crime"', '<Noir>'],
      formats: [
        { title_id: 7, format: 'Blu-ray', available_from: 5, available_until: null },
        { title_id: 7, format: 'DVD & "more"', available_from: 6, available_until: 9 },
      ],
      cast: [{ id: 1, name: 'A "B" & <C>' }],
      directors: [{ id: 2, name: '' }],
    };
    const empty: IndexTitle = {
      ...odd,
      title: '',
      release_year: 1999,
      mpaa_rating: null,
      tv_rating: 'TV-MA',
      genres: [],
      formats: [],
      cast: [],
      directors: [],
    };
    const write = indexItemWriter(base);
    for (const t of [odd, empty]) expect(write(t)).toBe(treeBytes(base, t));
    expect(write(empty)).toContain('<title/>');
    expect(write(empty)).toContain('<delivery_formats/>');
  });
});
