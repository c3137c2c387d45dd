import type { Db } from '../db.ts';
import { catalogGeneration } from '../catalog/generation.ts';
import { WordTableBuilder } from './word-table-build.ts';
import type { WordTable } from './word-table.ts';

/** Titles read per statement while building (keyset by id: each read is one index range). */
const READ_BATCH = 5000;

/** What the word table is now: for readiness (built at all) and the metrics (size, last build's time). */
export interface WordTableState {
  built: boolean;
  building: boolean;
  words: number;
  titles: number;
  /** Seconds the last finished build took; 0 before the first. */
  buildSeconds: number;
}

/**
 * The word table of the catalog generation the store is at, built on first use after every
 * catalog load or clear (by this process or another: the generation says) and then kept. One
 * build at a time; requests that arrive meanwhile wait for it. Held by the service's `Search`.
 */
export class CatalogWords {
  private current: { generation: number; table: WordTable } | undefined;
  private building: { generation: number; table: Promise<WordTable> } | undefined;
  private lastBuildSeconds = 0;

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

  state(): WordTableState {
    const table = this.current?.table;
    return {
      built: table !== undefined,
      building: this.building !== undefined,
      words: table?.words.length ?? 0,
      titles: table?.ids.length ?? 0,
      buildSeconds: this.lastBuildSeconds,
    };
  }

  private async build(generation: number): Promise<WordTable> {
    const started = performance.now();
    const builder = new WordTableBuilder();
    for await (const rows of searchableTitles(this.db)) {
      for (const r of rows) builder.add(r.id, r.title, r.average_rating);
    }
    const table = await builder.finish();
    this.lastBuildSeconds = (performance.now() - started) / 1000;
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
