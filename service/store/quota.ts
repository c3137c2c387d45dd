import type { Kysely } from 'kysely';
import type { RequestGuard } from './guard/types.ts';
import type { Database } from './schema.ts';

/** The per-second window holding `now` (Unix seconds). */
export function secondWindow(now: number): string {
  return `s:${now}`;
}

/** The per-day window holding `now`: its UTC date. */
export function dayWindow(now: number): string {
  return `d:${utcDate(now)}`;
}

/** `dayWindow` for a caller that asks once per request: the date text is made once a day. */
export function dayWindows(): (now: number) => string {
  let day = Number.NaN;
  let window = '';
  return (now) => {
    const d = Math.floor(now / 86_400);
    if (d !== day) {
      day = d;
      window = dayWindow(now);
    }
    return window;
  };
}

export type { Charge } from './guard/types.ts';

/** What reading a saved count needs of a database (db.ts is not imported: it opens the guard, which uses this). */
interface Store {
  kysely: Kysely<Database>;
}

/** A consumer's count in `window` (0 when it made no request there), as the guard holds it. */
export function quotaCount(db: { guard: RequestGuard }, consumerKey: string, window: string): Promise<number> {
  return db.guard.count(consumerKey, window);
}

/** A consumer's count in a day `window` as saved in the database. */
export async function savedQuotaCount(db: Store, consumerKey: string, window: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('quota_counters')
    .select('count')
    .where('consumer_key', '=', consumerKey)
    .where('window', '=', window)
    .executeTakeFirst();
  return row ? Number(row.count) : 0;
}

function utcDate(now: number): string {
  return new Date(now * 1000).toISOString().slice(0, 10);
}
