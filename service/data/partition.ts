/** Splits an in-memory catalog into load-sized batches, each title's rows travelling with it. */
import { emptyBatch, type CatalogBatch } from './catalog-batch.ts';

/** Titles in id order, `size` per batch; people are spread evenly across the same batches. */
export function* partitionBatch(all: CatalogBatch, size: number): Generator<CatalogBatch> {
  const titles = [...all.titles].sort((a, b) => a.id - b.id);
  const count = Math.max(1, Math.ceil(titles.length / size));
  const batches = Array.from({ length: count }, emptyBatch);
  const home = new Map<number, CatalogBatch>();
  titles.forEach((t, i) => {
    const b = batches[Math.floor(i / size)] as CatalogBatch;
    b.titles.push(t);
    home.set(t.id, b);
  });
  const route = <K extends Exclude<keyof CatalogBatch, 'titles' | 'people'>>(key: K) => {
    for (const row of all[key]) {
      const b = home.get(row.title_id);
      if (!b) throw new Error(`${key} row for unknown title ${row.title_id}`);
      (b[key] as (typeof row)[]).push(row);
    }
  };
  route('genres');
  route('availability');
  route('credits');
  route('similars');
  route('details');
  const people = [...all.people].sort((a, b) => a.id - b.id);
  const perBatch = Math.ceil(people.length / count);
  people.forEach((p, i) => (batches[Math.floor(i / perBatch)] as CatalogBatch).people.push(p));
  yield* batches;
}
