import type { Db } from '../store/db.ts';
import { bumpGeneration } from '../store/catalog/generation.ts';
import { fail, usage, type CommandOptions } from './options.ts';

const USAGE =
  'catalog availability <title id> --from <date|now> --until <date|never> [--format instant|disc|DVD|Blu-ray]';

/** What `--format` names: one delivery format, or `disc` for both disc formats. */
const FORMATS: Record<string, string[]> = {
  instant: ['instant'],
  disc: ['DVD', 'Blu-ray'],
  DVD: ['DVD'],
  'Blu-ray': ['Blu-ray'],
};

/**
 * `catalog availability <title id> --from … --until …`: sets when a title can be had in a format
 * (instant by default), then bumps the catalog generation so every catalog ETag changes and a
 * running service (which rereads the generation within a second) answers the new window.
 */
export async function runCatalogCommand(
  db: Db,
  action: string | undefined,
  opts: CommandOptions,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<number> {
  if (action !== 'availability') return usage(USAGE);
  const idText = opts.positional[0];
  if (idText === undefined || !opts.has('--from') || !opts.has('--until')) return usage(USAGE);
  const id = Number(idText);
  if (!/^\d+$/.test(idText) || !Number.isSafeInteger(id) || id < 1)
    return fail(
      `the title id must be a positive whole number (the last part of a title's URL): ${JSON.stringify(idText)}`,
    );
  const formats = FORMATS[opts.get('--format') ?? 'instant'];
  if (!formats) return fail(`--format must be instant, disc, DVD or Blu-ray: ${JSON.stringify(opts.get('--format'))}`);
  const fromValue = opts.get('--from')!;
  const from = fromValue === 'now' ? nowSeconds : dateOption('--from', fromValue, 'now');
  const untilValue = opts.get('--until')!;
  const until = untilValue === 'never' ? null : dateOption('--until', untilValue, 'never');
  if (typeof from === 'string') return fail(from);
  if (typeof until === 'string') return fail(until);
  if (until !== null && until <= from) return fail(`--until (${iso(until)}) must be after --from (${iso(from)})`);

  const title = await db.kysely.selectFrom('titles').select(['id', 'title']).where('id', '=', id).executeTakeFirst();
  if (!title) return fail(`no title with id ${id} in the catalog`);
  await db.kysely.transaction().execute(async (tx) => {
    for (const format of formats) {
      await tx
        .insertInto('availability')
        .values({ title_id: id, format, available_from: from, available_until: until })
        .onConflict((oc) =>
          oc.columns(['title_id', 'format']).doUpdateSet({ available_from: from, available_until: until }),
        )
        .execute();
    }
    // The title changed: an index read with updated_min finds it.
    await tx.updateTable('titles').set({ updated: nowSeconds }).where('id', '=', id).execute();
  });
  const generation = await bumpGeneration(db);
  console.log(
    `${title.title} (${id}): ${formats.join(', ')} from ${iso(from)} until ${until === null ? 'further notice' : iso(until)}; catalog generation ${generation}`,
  );
  return 0;
}

/** A `--from`/`--until` date as Unix seconds (an ISO date or date-time), or what is wrong with it, in words. */
function dateOption(flag: string, value: string, word: 'now' | 'never'): number | string {
  // A bare date is midnight UTC; a date-time without a zone is read as UTC too, so the command means the same on every machine.
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? `${value}T00:00:00Z`
    : /^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(value)
      ? `${value}Z`
      : value;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms))
    return `${flag} must be a date such as 2026-12-31 or 2026-12-31T18:00:00Z, or "${word}": ${JSON.stringify(value)}`;
  return Math.floor(ms / 1000);
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}
