import { describe, expect, it } from 'vitest';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import type { Db } from '../../service/store/db.ts';
import { NONCE_SLOTS } from '../../service/store/guard/pg-nonce-ring.ts';
import { DATABASES, testDbForBlock } from '../helpers/service.ts';

/** 2031-03-10T18:00:00Z: the service's clock, moved a second at a time by the test. */
const T0 = Date.UTC(2031, 2, 10, 18, 0, 0) / 1000;
const MINUTES = 20; // the title says twenty
/** Signed requests a simulated second, two of them from a client whose clock runs 5 s ahead. */
const PER_SECOND = 12;
const AHEAD = 2;
/** The timestamp window: ±300 s around the service's clock. */
const WINDOW_SECONDS = 600;

/** Rows of every table the guard writes, and the nonces it holds in memory. */
async function footprint(db: Db): Promise<Record<string, number>> {
  const tables =
    db.dialect === 'postgres'
      ? (['guard_nonces', 'quota_seconds', 'quota_counters'] as const)
      : (['guard_future_seconds', 'guard_nonce_buckets', 'quota_counters'] as const);
  const counts: Record<string, number> = { 'nonces in memory': db.guard.held().nonces };
  for (const table of tables) {
    const row = await db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

/**
 * Issue 19: no table grows with request rate × time. Twenty minutes of the service's clock, a steady
 * request rate, the guard's upkeep every ten seconds as its timer runs it: once the timestamp
 * window is full, every hot-path table (and the in-memory nonce store) stops growing.
 */
describe.each(DATABASES)('the request guard on %s, over twenty minutes of a moved clock', (kind) => {
  const opened = testDbForBlock(kind);

  it(`holds at most rate × window rows, flat once the window is full (${MINUTES} simulated minutes)`, async () => {
    const { db } = opened;
    const consumer = await createConsumer(db, { name: 'Steady', perSecond: 1000 });
    const samples: Array<Record<string, number>> = [];
    let upkeep: Promise<void> = Promise.resolve();
    for (let s = 0; s < MINUTES * 60; s++) {
      const now = T0 + s;
      const admitted = await Promise.all(
        Array.from({ length: PER_SECOND }, (_, i) =>
          db.guard.admit(
            { consumerKey: consumer.key, token: '', timestamp: i < AHEAD ? now + 5 : now, nonce: `n${s}-${i}` },
            1000,
            now,
          ),
        ),
      );
      expect(
        admitted.every((a) => a.kind === 'fresh'),
        `second ${s}`,
      ).toBe(true);
      // Upkeep runs beside the requests, as its timer does (a TRUNCATE while claims go in).
      if (s % 10 === 9) upkeep = db.guard.flush();
      if (s % 60 === 59) {
        await upkeep;
        samples.push(await footprint(db));
      }
    }
    console.log(`${kind}: per minute ${JSON.stringify(samples)}`);
    const bound = PER_SECOND * WINDOW_SECONDS;
    for (const sample of samples)
      for (const [table, rows] of Object.entries(sample)) expect(rows, table).toBeLessThanOrEqual(bound);
    // Flat: the last ten minutes hold no more than the ten before them (a growing table would).
    const firstFull = samples.slice(MINUTES / 2 - 2, MINUTES / 2);
    const last = samples.slice(-2);
    for (const table of Object.keys(samples[0]!)) {
      expect(Math.max(...last.map((x) => x[table]!)), table).toBeLessThanOrEqual(
        Math.max(...firstFull.map((x) => x[table]!)) + PER_SECOND * 60,
      );
    }
    if (kind === 'postgres') {
      // The ring: a minute's nonces per partition, the ones no node can write to cleared.
      expect(samples.at(-1)!.guard_nonces).toBeLessThan(PER_SECOND * 60 * (NONCE_SLOTS - 4));
      expect(samples.at(-1)!.quota_seconds).toBe(1);
    } else {
      expect(samples.at(-1)!['nonces in memory']).toBeLessThanOrEqual(PER_SECOND * (310 + 10 + 5));
      // Seconds ahead of the clock, kept while the window could still bring them: 310 back to 5 ahead.
      expect(samples.at(-1)!.guard_future_seconds).toBeLessThanOrEqual(310 + 5 + 1);
    }
    expect(samples.at(-1)!.quota_counters).toBe(1);
    // A replay at the end is still refused.
    const last_ = T0 + MINUTES * 60 - 1;
    expect(
      (
        await db.guard.admit(
          { consumerKey: consumer.key, token: '', timestamp: last_, nonce: `n${MINUTES * 60 - 1}-${AHEAD}` },
          1000,
          last_,
        )
      ).kind,
    ).toBe('replay');
  }, 300_000);
});
