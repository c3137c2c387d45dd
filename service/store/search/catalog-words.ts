import type { Db } from '../db.ts';
import { catalogGeneration } from '../catalog/generation.ts';
import { WordTableBuilder } from './word-table-build.ts';
import type { WordTable } from './word-table.ts';

/** Titles read per statement while building (keyset by id: each read is one index range). */
const READ_BATCH = 5000;

/**
 * The word table of the catalog generation the store is at, built on first use after every
 * catalog load or clear (by this process or another: the generation says) and then kept. One
 * build at a time; requests that arrive meanwhile wait for it. Held by the service's `Search`.
 */
export class CatalogWords {
  private current: { generation: number; table: WordTable } | undefined;
  private building: { generation: number; table: Promise<WordTable> } | undefined;

  constructor(private readonly db: Db) {}

  async table(): Promise<WordTable> {
    const generation = await catalogGeneration(this.db);
    if (this.current?.generation === generation) return this.current.table;
    if (this.building?.generation !== generation) {
      const table = this.build(generation);
      this.building = { generation, table };
      // A failed build (the store closed, say) is retried by the next request, not kept.
      table.catch(() => {
        if (this.building?.table === table) this.building = undefined;
      });
    }
    return this.building.table;
  }

  private async build(generation: number): Promise<WordTable> {
    const builder = new WordTableBuilder();
    for await (const rows of searchableTitles(this.db)) {
      for (const r of rows) builder.add(r.id, r.title, r.average_rating);
    }
    const table = await builder.finish();
    if (this.building?.generation === generation) this.building = undefined;
    if (!this.current || this.current.generation < generation) this.current = { generation, table };
    return table;
  }
}

/** Movies and series (what title search finds) in id order, a batch a time; the event loop runs between batches. */
async function* searchableTitles(
  db: Db,
): AsyncGenerator<Array<{ id: number; title: string; average_rating: number | null }>> {
  let after = -1;
  for (;;) {
    const rows = await db.kysely
      .selectFrom('titles')
      .select(['id', 'title', 'average_rating'])
      .where('type', 'in', ['movie', 'series'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(READ_BATCH)
      .execute();
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
