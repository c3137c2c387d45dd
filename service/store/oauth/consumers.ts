import { randomBytes } from 'node:crypto';
import { compiledOnce } from '../compiled-once.ts';
import type { Db } from '../db.ts';
import type { Consumer } from '../../model/consumer.ts';

export interface NewConsumer {
  name: string;
  legacy?: boolean;
  perSecond?: number | null;
  perDay?: number | null;
  /** Where an OAuth 1.0 consumer may name its callback on the login URL (an origin). */
  callbackOrigin?: string | null;
  /** Fixed credentials (tests, the embedded default); random when omitted. */
  key?: string;
  secret?: string;
}

/** Registers an application; key and secret are random unless given. */
export async function createConsumer(db: Db, input: NewConsumer): Promise<Consumer> {
  const consumer: Consumer = {
    key: input.key ?? randomToken(24),
    secret: input.secret ?? randomToken(12),
    name: input.name,
    legacy: input.legacy ? 1 : 0,
    revoked: 0,
    per_second: input.perSecond ?? null,
    per_day: input.perDay ?? null,
    created: Math.floor(Date.now() / 1000),
    callback_origin: input.callbackOrigin ?? null,
  };
  await db.kysely.insertInto('consumers').values(consumer).execute();
  return consumer;
}

export async function findConsumer(db: Db, key: string): Promise<Consumer | undefined> {
  return (await consumerRow(db, key))[0];
}

/** Read for every consumer key a request names (through store/consumer-cache.ts): compiled once. */
const consumerRow = compiledOnce((k) => k.selectFrom('consumers').selectAll().where('key', '=', ''));

/** Oldest first; consumers created in the same second (`created` is in seconds) by name, then key. */
export async function listConsumers(db: Db): Promise<Consumer[]> {
  return db.kysely.selectFrom('consumers').selectAll().orderBy('created').orderBy('name').orderBy('key').execute();
}

/** Returns false when no such consumer exists. */
export async function revokeConsumer(db: Db, key: string): Promise<boolean> {
  const result = await db.kysely.updateTable('consumers').set({ revoked: 1 }).where('key', '=', key).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setConsumerQuota(
  db: Db,
  key: string,
  perSecond: number | null,
  perDay: number | null,
): Promise<boolean> {
  const result = await db.kysely
    .updateTable('consumers')
    .set({ per_second: perSecond, per_day: perDay })
    .where('key', '=', key)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Lower-case letters and digits, as the historical service's keys were. */
export function randomToken(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}
