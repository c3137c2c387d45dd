import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGIN, ensureDemoSubscriber } from '../../service/data/demo/subscriber-account.ts';
import { DEMO_QUEUE_SHAPE, planDemoQueues, seedDemoQueues } from '../../service/data/demo/queue.ts';
import { loadCandidates, type CandidateTitle } from '../../service/data/demo/subscriber.ts';
import { readQueue } from '../../service/store/queue/queues.ts';
import type { Db } from '../../service/store/db.ts';
import { DATABASES, openTestDb } from '../helpers/service.ts';

const DAY = 86_400;

describe.each(DATABASES)('the demo subscriber’s queues on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let userId: string;
  let catalog: CandidateTitle[];
  const now = Math.floor(Date.now() / 1000);
  const instantWindow = (id: number) => catalog.find((t) => t.id === id)!.formats.find((f) => f.format === 'instant')!;

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    await ensureDemoSubscriber(db, now);
    userId = (
      await db.kysely.selectFrom('users').select('id').where('login', '=', DEMO_LOGIN).executeTakeFirstOrThrow()
    ).id;
    catalog = await loadCandidates(db);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it('start with forty instant titles: most streaming now, some saved because they arrive within 90 days', async () => {
    const { entries } = await readQueue(db, userId, 'instant');
    expect(entries).toHaveLength(40);
    const saved = entries.filter((e) => e.position === null);
    expect(saved).toHaveLength(DEMO_QUEUE_SHAPE.saved);
    for (const e of saved) {
      const w = instantWindow(e.title_id);
      expect(w.available_from).toBeGreaterThan(now);
      expect(w.available_from).toBeLessThanOrEqual(now + 90 * DAY);
    }
    const available = entries.filter((e) => e.position !== null);
    expect(available.map((e) => e.position)).toEqual(available.map((_, i) => i + 1));
    for (const e of available) expect(instantWindow(e.title_id).available_from).toBeLessThanOrEqual(now);
  });

  it('hold titles leaving within weeks and within three months, mixed into the order', async () => {
    const available = (await readQueue(db, userId, 'instant')).entries.filter((e) => e.position !== null);
    const until = available.map((e) => instantWindow(e.title_id).available_until);
    const within = (days: number) => until.filter((u) => u !== null && u > now && u <= now + days * DAY).length;
    expect(within(30)).toBe(DEMO_QUEUE_SHAPE.leavingSoon);
    expect(within(90)).toBe(DEMO_QUEUE_SHAPE.leavingSoon + DEMO_QUEUE_SHAPE.leavingLater);
    // Not all leaving titles at the top: the order is a person's, not sorted by date.
    const leavingPositions = available
      .filter((_, i) => until[i] !== null && until[i]! <= now + 90 * DAY)
      .map((e) => e.position!);
    expect(Math.max(...leavingPositions)).toBeGreaterThan(DEMO_QUEUE_SHAPE.leavingSoon + DEMO_QUEUE_SHAPE.leavingLater);
  });

  it('put a few discs on the disc queue, none of them a title already rented or in the instant queue', async () => {
    const disc = (await readQueue(db, userId, 'disc')).entries;
    expect(disc).toHaveLength(DEMO_QUEUE_SHAPE.disc);
    expect(disc.every((e) => e.position !== null && ['DVD', 'Blu-ray'].includes(e.format))).toBe(true);
    const rented = new Set(
      (await db.kysely.selectFrom('rentals').select('title_id').where('user_id', '=', userId).execute()).map((r) =>
        Number(r.title_id),
      ),
    );
    const instant = (await readQueue(db, userId, 'instant')).entries.map((e) => e.title_id);
    expect(rented.size).toBeGreaterThan(0);
    expect([...instant, ...disc.map((e) => e.title_id)].filter((id) => rented.has(id))).toEqual([]);
    expect(new Set([...instant, ...disc.map((e) => e.title_id)]).size).toBe(instant.length + disc.length);
  });

  it('are planned the same for the same catalog and time, and never written over a queue that holds something', async () => {
    const avoid = new Set([catalog[0]!.id]);
    expect(planDemoQueues(catalog, now, avoid)).toEqual(planDemoQueues(catalog, now, avoid));
    const before = await readQueue(db, userId, 'instant');
    expect(await seedDemoQueues(db, userId, now)).toBe(false);
    expect(await readQueue(db, userId, 'instant')).toEqual(before);
  });

  it('plan nothing over an empty catalog', () => {
    expect(planDemoQueues([], now, new Set())).toEqual({ instant: [], disc: [] });
  });
});
