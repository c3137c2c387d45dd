import type { Kysely } from 'kysely';
import { dayWindow, dayWindows, savedQuotaCount, secondWindow } from '../quota.ts';
import type { Database } from '../schema.ts';
import type { Charge } from './types.ts';

interface DayCount {
  count: number;
  dirty: boolean;
}

/**
 * Quota counts on SQLite, where one process owns the file: the current second's count per consumer
 * in memory (one entry per consumer, replaced each second), day counts in memory and saved about
 * once a second (one row per consumer and day), so a restart keeps the day's budget spent.
 */
export class MemoryQuota {
  private readonly seconds = new Map<string, { second: number; count: number }>();
  private readonly days = new Map<string, DayCount>();
  private readonly dayLoads = new Map<string, Promise<DayCount>>();
  private readonly dayOf = dayWindows();

  constructor(private readonly kysely: Kysely<Database>) {}

  /** Per-second count first; the day only counts requests the second let through. */
  async charge(consumerKey: string, perSecond: number, now: number): Promise<Charge> {
    let s = this.seconds.get(consumerKey);
    if (!s || s.second !== now) {
      s = { second: now, count: 0 };
      this.seconds.set(consumerKey, s);
    }
    s.count++;
    const second = s.count;
    if (second > perSecond) return { second, day: undefined };
    const day = this.days.get(`${consumerKey}\n${this.dayOf(now)}`) ?? (await this.loadDay(consumerKey, now));
    day.count++;
    day.dirty = true;
    return { second, day: day.count };
  }

  async count(consumerKey: string, window: string): Promise<number> {
    if (window.startsWith('s:')) {
      const s = this.seconds.get(consumerKey);
      return s && secondWindow(s.second) === window ? s.count : 0;
    }
    const held = this.days.get(`${consumerKey}\n${window}`);
    if (held) return held.count;
    return savedQuotaCount({ kysely: this.kysely }, consumerKey, window);
  }

  /** Saves the day counts changed since the last save, and forgets saved ones before yesterday. */
  async save(wallNow: number): Promise<void> {
    const dirty = [...this.days].filter(([, d]) => d.dirty);
    for (const [, d] of dirty) d.dirty = false;
    if (dirty.length > 0) {
      await this.kysely.transaction().execute(async (trx) => {
        for (const [key, d] of dirty) {
          const [consumer_key, window] = key.split('\n') as [string, string];
          await trx
            .insertInto('quota_counters')
            .values({ consumer_key, window, count: d.count })
            .onConflict((oc) => oc.columns(['consumer_key', 'window']).doUpdateSet({ count: d.count }))
            .execute();
        }
      });
    }
    const yesterday = dayWindow(wallNow - 86_400);
    for (const [key, d] of this.days)
      if (!d.dirty && key.slice(key.indexOf('\n') + 1) < yesterday) this.days.delete(key);
  }

  /** The day's count as saved (by an earlier run), read once per consumer and day. */
  private loadDay(consumerKey: string, now: number): Promise<DayCount> {
    const key = `${consumerKey}\n${this.dayOf(now)}`;
    let load = this.dayLoads.get(key);
    if (!load) {
      load = this.count(consumerKey, dayWindow(now)).then((count) => {
        const day = this.days.get(key) ?? { count, dirty: false };
        this.days.set(key, day);
        this.dayLoads.delete(key);
        return day;
      });
      this.dayLoads.set(key, load);
    }
    return load;
  }
}
