import { expect } from 'vitest';
import type { Consumer } from '../../service/model/consumer.ts';
import type { Db } from '../../service/store/db.ts';
import type { Credentials } from './oauth-client.ts';
import { running, type RunningService } from './service-process.ts';
import { openTestDb } from './service.ts';
import type { Answer } from './signed-fetch.ts';
import { unlimitedSubscriber } from './subscriber.ts';
import { QUEUE_AS_JSON, queueFromJson } from './queue-json.ts';

/** A fresh PostgreSQL database holding the demo catalog, for service processes to share, and one subscriber on it. */
export interface SharedDatabase {
  db: Db;
  databaseUrl: string;
  drop(): Promise<void>;
  /** A consumer no load reaches the budget of. */
  consumer: Consumer;
  userId: string;
  token: Credentials;
}

export async function openSharedDatabase(
  consumerName: string,
  user: { login: string; password: string; firstName: string; lastName: string },
): Promise<SharedDatabase> {
  const { db, drop, databaseUrl } = await openTestDb('postgres');
  const { consumer, userId, token } = await unlimitedSubscriber(db, consumerName, user);
  return { db, drop, databaseUrl: databaseUrl!, consumer, userId, token };
}

/** Stops the service processes (and any the test left), then closes and drops the database. */
export async function closeSharedDatabase(nodes: RunningService[], shared: SharedDatabase | undefined): Promise<void> {
  await Promise.all(nodes.map((n) => n.stop('SIGTERM')));
  for (const proc of running) proc.kill('SIGKILL');
  await shared?.db.close();
  await shared?.drop();
}

/** The query of a queue read for queueOrder: every entry, as JSON. */
export const QUEUE_ORDER_QUERY = `max_results=500&${QUEUE_AS_JSON}`;

/** A queue page read with GET (QUEUE_ORDER_QUERY): its ETag and title ids in order, its positions checked to be 1..n. */
export function queueOrder(res: Answer): { etag: number; order: number[] } {
  expect(res.status, res.body).toBe(200);
  const { etag, entries } = queueFromJson(res.body);
  expect(entries.map((e) => e.position)).toEqual(entries.map((_, i) => i + 1)); // always 1..n
  return { etag, order: entries.map((e) => Number(e.itemRef.split('/').pop())) };
}

/** A queue write sent with If-Match: the version it was made against, its status, the new version when applied. */
export interface VersionedWrite {
  ifMatch: number;
  status: number;
  newEtag?: number;
}

/**
 * The applied writes in the order they were applied, checked to form one unbroken chain from the
 * queue's `initialEtag`: each moved the version from its own If-Match to the next, none shared one.
 */
export function appliedChain<W extends VersionedWrite>(writes: W[], initialEtag: number): W[] {
  const applied = writes.filter((w) => w.newEtag !== undefined).sort((a, b) => a.newEtag! - b.newEtag!);
  for (const w of applied) expect(w.newEtag).toBe(w.ifMatch + 1);
  expect(applied.map((w) => w.newEtag)).toEqual(applied.map((_, i) => initialEtag + 1 + i));
  return applied;
}
