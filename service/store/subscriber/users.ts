import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { compiledOnce } from '../compiled-once.ts';
import type { Db } from '../db.ts';
import { randomToken } from '../oauth/consumers.ts';
import type { User } from '../../model/user.ts';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export interface NewUser {
  login: string;
  password: string;
  firstName: string;
  lastName: string;
  nickname?: string;
  canInstantWatch?: boolean;
  preferredFormats?: string[];
  acceptedTos?: boolean;
}

/** Registers a subscriber; ids are opaque random strings (CONTRACT.md §1). */
export async function createUser(db: Db, input: NewUser): Promise<User> {
  const user: User = {
    id: `T1${randomToken(22)}`,
    login: input.login.trim().toLowerCase(),
    password_hash: await hashPassword(input.password),
    first_name: input.firstName,
    last_name: input.lastName,
    nickname: input.nickname ?? input.firstName,
    can_instant_watch: input.canInstantWatch === false ? 0 : 1,
    max_maturity_level: 1000,
    preferred_formats: JSON.stringify(input.preferredFormats ?? ['instant', 'DVD']),
    accepted_tos: input.acceptedTos ? 1 : 0,
    feed_token: randomToken(24),
    created: Math.floor(Date.now() / 1000),
  };
  await db.kysely.insertInto('users').values(user).execute();
  return user;
}

export async function getUser(db: Db, id: string): Promise<User | undefined> {
  return (await userRow(db, id))[0];
}

/** Read by every request of a signed-in subscriber: compiled once. */
const userRow = compiledOnce((k) => k.selectFrom('users').selectAll().where('id', '=', ''));

/** The subscriber with this login and password, or undefined (same time spent either way). */
export async function authenticateUser(db: Db, login: string, password: string): Promise<User | undefined> {
  const user = await db.kysely
    .selectFrom('users')
    .selectAll()
    .where('login', '=', login.trim().toLowerCase())
    .executeTakeFirst();
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  return ok && user ? user : undefined;
}

export async function findUserByLogin(db: Db, login: string): Promise<User | undefined> {
  return db.kysely.selectFrom('users').selectAll().where('login', '=', login.trim().toLowerCase()).executeTakeFirst();
}

export async function listUsers(db: Db): Promise<User[]> {
  return db.kysely.selectFrom('users').selectAll().orderBy('created').orderBy('login').execute();
}

/** Replaces a subscriber's password; false when no such user. */
export async function setPassword(db: Db, userId: string, password: string): Promise<boolean> {
  const result = await db.kysely
    .updateTable('users')
    .set({ password_hash: await hashPassword(password) })
    .where('id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function acceptTerms(db: Db, userId: string): Promise<void> {
  await db.kysely.updateTable('users').set({ accepted_tos: 1 }).where('id', '=', userId).execute();
}

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('hex')}$${hash.toString('hex')}`;
}

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, saltHex, hashHex] = stored.split('$');
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, 'hex');
  const actual = await scrypt(password, Buffer.from(saltHex, 'hex'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** Compared against when the login is unknown, so timing does not reveal which logins exist. */
const DUMMY_HASH = `scrypt$${'00'.repeat(16)}$${'00'.repeat(32)}`;

/** Revokes every feed URL handed out so far by issuing a new feed token. */
export async function rotateFeedToken(db: Db, userId: string): Promise<string> {
  const token = randomToken(24);
  await db.kysely.updateTable('users').set({ feed_token: token }).where('id', '=', userId).execute();
  return token;
}
