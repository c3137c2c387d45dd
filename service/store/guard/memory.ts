import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { dayWindow, secondWindow } from '../quota.ts';
import { purgeOld } from './purge.ts';
import { FLUSH_INTERVAL_MS, NONCE_KEEP_SECONDS, type Admission, type Charge, type NonceClaim, type RequestGuard } from './types.ts';

/** `meta` key: '1' while a process holds the guard, '0' once it saved everything and closed. */
const RUNNING = 'guard_running';
/** Nonce rows per INSERT (4 bound parameters each, well under SQLite's limit). */
const NONCE_CHUNK = 200;

/**
 * The SQLite guard. One process owns the file, so nonces and per-second counters live in memory
 * (a nonce is kept only while its timestamp is inside the window); nonces and day counts are
 * saved about once a second and at close. On open it reloads the saved nonces; if the previous
 * process stopped without closing (its last second of nonces may be lost), requests signed before
 * this process's first request are refused as stale rather than risk accepting a replay.
 */
export async function openMemoryGuard(kysely: Kysely<Database>): Promise<RequestGuard> {
  const crashed = (await kysely.selectFrom('meta').select('value').where('key', '=', RUNNING).executeTakeFirst())?.value === '1';
  await setRunning(kysely, '1');
  const nonces = new Map<string, number>();
  for (const r of await kysely.selectFrom('nonces').selectAll().execute()) nonces.set(nonceKey(r.consumer_key, r.token, r.timestamp, r.nonce), r.timestamp);
  const state = new GuardState(kysely, nonces, crashed);
  const timer = setInterval(() => void state.flush().catch(() => undefined), FLUSH_INTERVAL_MS);
  timer.unref();
  let closed = false;
  return {
    admit: (claim, perSecond, now) => state.admit(claim, perSecond, now),
    charge: (key, perSecond, now) => state.charge(key, perSecond, now),
    count: (key, window) => state.count(key, window),
    flush: () => state.flush(),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await state.flush();
      await setRunning(kysely, '0');
    },
  };
}

function nonceKey(consumerKey: string, token: string, timestamp: number, nonce: string): string {
  return `${consumerKey}\n${token}\n${timestamp}\n${nonce}`;
}

async function setRunning(kysely: Kysely<Database>, value: string): Promise<void> {
  await kysely.insertInto('meta').values({ key: RUNNING, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
}

interface DayCount {
  count: number;
  dirty: boolean;
}

class GuardState {
  private readonly pending: NonceClaim[] = [];
  private readonly seconds = new Map<string, { second: number; count: number }>();
  private readonly days = new Map<string, DayCount>();
  private readonly dayLoads = new Map<string, Promise<DayCount>>();
  /** Set at the first request after an unclean stop: earlier timestamps are refused. */
  private refuseBefore: number | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly nonces: Map<string, number>,
    private crashed: boolean,
  ) {}

  async admit(claim: NonceClaim, perSecond: number, now: number): Promise<Admission> {
    if (this.crashed) {
      this.refuseBefore = now;
      this.crashed = false;
    }
    if (this.refuseBefore !== undefined && claim.timestamp < this.refuseBefore) return { kind: 'stale' };
    this.sweep(now);
    const key = nonceKey(claim.consumerKey, claim.token, claim.timestamp, claim.nonce);
    if (this.nonces.has(key)) return { kind: 'replay' };
    this.nonces.set(key, claim.timestamp);
    this.pending.push(claim);
    return { kind: 'fresh', charge: await this.charge(claim.consumerKey, perSecond, now) };
  }

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
    const day = this.days.get(dayKey(consumerKey, now)) ?? (await this.loadDay(consumerKey, now));
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
    const row = await this.kysely.selectFrom('quota_counters').select('count')
      .where('consumer_key', '=', consumerKey).where('window', '=', window).executeTakeFirst();
    return row ? Number(row.count) : 0;
  }

  /** The day's count as saved (by an earlier run), read once per consumer and day. */
  private loadDay(consumerKey: string, now: number): Promise<DayCount> {
    const key = dayKey(consumerKey, now);
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

  /** Forgets nonces whose timestamps the window refuses anyway (a few per call: never a long pause). */
  private sweep(now: number): void {
    let n = 0;
    for (const [key, timestamp] of this.nonces) {
      if (n++ >= 64 || timestamp >= now - NONCE_KEEP_SECONDS) break;
      this.nonces.delete(key);
    }
  }

  flush(): Promise<void> {
    this.flushing ??= this.save().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async save(): Promise<void> {
    const claims = this.pending.splice(0);
    const dirty = [...this.days].filter(([, d]) => d.dirty);
    for (const [, d] of dirty) d.dirty = false;
    const wallNow = Math.floor(Date.now() / 1000);
    await this.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < claims.length; i += NONCE_CHUNK) {
        const rows = claims.slice(i, i + NONCE_CHUNK).map((c) => ({ consumer_key: c.consumerKey, token: c.token, timestamp: c.timestamp, nonce: c.nonce }));
        await trx.insertInto('nonces').values(rows).onConflict((oc) => oc.doNothing()).execute();
      }
      for (const [key, d] of dirty) {
        const [consumer_key, window] = key.split('\n') as [string, string];
        await trx.insertInto('quota_counters').values({ consumer_key, window, count: d.count })
          .onConflict((oc) => oc.columns(['consumer_key', 'window']).doUpdateSet({ count: d.count })).execute();
      }
    });
    await purgeOld(this.kysely, 'sqlite', wallNow);
    // Day counts before yesterday are not needed in memory any more (saved ones only).
    const yesterday = dayWindow(wallNow - 86_400);
    for (const [key, d] of this.days) if (!d.dirty && key.slice(key.indexOf('\n') + 1) < yesterday) this.days.delete(key);
  }
}

function dayKey(consumerKey: string, now: number): string {
  return `${consumerKey}\n${dayWindow(now)}`;
}
