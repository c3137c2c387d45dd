import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { NonceStore } from './nonce-store.ts';

/** `meta` key: '1' while a process holds the guard, '0' once it saved its nonces and closed. */
const RUNNING = 'guard_running';
/** `meta` key: the hash secret the saved nonces were made with (hex). */
const SECRET = 'guard_secret';
/** `meta` key: timestamps up to this second are refused (inherited from a stop that saved no nonces). */
const REFUSE_THROUGH = 'guard_refuse_through';
/** `meta` key: the latest second (service clock) in which the running process accepted a nonce. */
const ACCEPTED_THROUGH = 'guard_accepted_through';

/** What a SQLite guard starts from. */
export interface SavedGuard {
  secret: string;
  nonces: NonceStore;
  /** Timestamps up to this second are refused: what a stop that saved no nonces may have accepted. */
  refuseThrough: number | undefined;
  /** The latest second already written as ACCEPTED_THROUGH. */
  acceptedThrough: number;
}

/**
 * Reads what the last clean close saved (its nonce sets and their secret) and marks the guard as
 * held. After an unclean stop (`guard_running` still 1) nothing is loaded and a fresh secret is
 * drawn; every timestamp up to the last second that process accepted a request in is refused (its
 * nonces are lost), and the seconds it accepted ahead of its clock (FutureSeconds). Saved sets are
 * deleted once read: they are saved anew at close.
 */
export async function openSavedGuard(kysely: Kysely<Database>): Promise<SavedGuard> {
  const keys = [RUNNING, SECRET, REFUSE_THROUGH, ACCEPTED_THROUGH];
  const meta = new Map(
    (await kysely.selectFrom('meta').select(['key', 'value']).where('key', 'in', keys).execute()).map((r) => [
      r.key,
      r.value,
    ]),
  );
  const crashed = meta.get(RUNNING) === '1';
  const savedSecret = meta.get(SECRET);
  const nonces = new NonceStore();
  const clean = !crashed && savedSecret !== undefined;
  if (clean) {
    for (const row of await kysely.selectFrom('guard_nonce_buckets').select(['bucket', 'hashes']).execute())
      nonces.restore(row.bucket, row.hashes);
  }
  const saved = (key: string) => (meta.has(key) ? Number(meta.get(key)) : undefined);
  // A version before these records (its nonces were in a table migration 010 dropped): refuse up to now.
  const older = meta.has(RUNNING) && (crashed ? !meta.has(ACCEPTED_THROUGH) : savedSecret === undefined);
  const refuseThrough = older
    ? Math.floor(Date.now() / 1000)
    : crashed
      ? saved(ACCEPTED_THROUGH)
      : saved(REFUSE_THROUGH);
  const acceptedThrough = saved(ACCEPTED_THROUGH) ?? refuseThrough ?? 0;
  await kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('guard_nonce_buckets').execute();
    await setMeta(trx, RUNNING, '1');
    // Written from the first open on: a process killed before it accepted a request (a CLI command)
    // then leaves a record, and is not taken for the older version that left none.
    if (!meta.has(ACCEPTED_THROUGH)) await setMeta(trx, ACCEPTED_THROUGH, String(acceptedThrough));
  });
  return {
    secret: clean ? savedSecret : randomBytes(16).toString('hex'),
    nonces,
    refuseThrough,
    acceptedThrough,
  };
}

/** What a clean close saves: the nonce sets (a few MB a minute of traffic), one write at the end. */
export async function saveGuardAtClose(
  kysely: Kysely<Database>,
  saved: SavedGuard,
  ownFutureSeconds: Iterable<number>,
): Promise<void> {
  await kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('guard_nonce_buckets').execute(); // one process owns the file: its sets are the whole record
    for (const [bucket, hashes] of saved.nonces.packed())
      await trx.insertInto('guard_nonce_buckets').values({ bucket, hashes }).execute();
    await setMeta(trx, SECRET, saved.secret);
    if (saved.refuseThrough === undefined) await trx.deleteFrom('meta').where('key', '=', REFUSE_THROUGH).execute();
    else await setMeta(trx, REFUSE_THROUGH, String(saved.refuseThrough));
    // This process's future seconds are in the saved sets now; inherited ones still stand.
    const own = [...ownFutureSeconds];
    for (let i = 0; i < own.length; i += 500)
      await trx
        .deleteFrom('guard_future_seconds')
        .where('second', 'in', own.slice(i, i + 500))
        .execute();
    await setMeta(trx, RUNNING, '0');
  });
}

/**
 * Writes ACCEPTED_THROUGH before the first nonce of a later second is accepted: one small write a
 * second, so that after an unclean stop exactly the seconds that may hold lost nonces are refused.
 * Undefined when `second` is covered already (no wait on the hot path).
 */
export function coverSecond(
  kysely: Kysely<Database>,
  saved: SavedGuard,
  writes: Map<number, Promise<void>>,
  second: number,
): Promise<void> | undefined {
  if (second <= saved.acceptedThrough) return undefined;
  let write = writes.get(second);
  if (!write) {
    write = setMeta(kysely, ACCEPTED_THROUGH, String(second))
      .then(() => void (saved.acceptedThrough = Math.max(saved.acceptedThrough, second)))
      .finally(() => writes.delete(second));
    writes.set(second, write);
  }
  return write;
}

async function setMeta(kysely: Kysely<Database>, key: string, value: string): Promise<void> {
  await kysely
    .insertInto('meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * Seconds ahead of the service's clock at which a nonce was accepted, written before the answer.
 * After an unclean stop the guard refuses every timestamp up to its first request's second (the
 * lost nonces were all accepted at or before it) — but a client whose clock runs ahead signs
 * later timestamps, so those seconds are refused too. One row per second, only for such clients:
 * a few hundred rows at most.
 */
export class FutureSeconds {
  private readonly own = new Set<number>();
  private readonly writing = new Map<number, Promise<void>>();

  constructor(
    private readonly kysely: Kysely<Database>,
    /** Seconds recorded by earlier processes: refused. */
    private readonly inherited: Set<number>,
  ) {}

  static async load(kysely: Kysely<Database>): Promise<FutureSeconds> {
    const rows = await kysely.selectFrom('guard_future_seconds').select('second').execute();
    return new FutureSeconds(kysely, new Set(rows.map((r) => r.second)));
  }

  refuses(timestamp: number): boolean {
    return this.inherited.has(timestamp);
  }

  get ownSeconds(): Iterable<number> {
    return this.own;
  }

  /** Resolves once the second is on disk. */
  record(second: number): Promise<void> {
    if (this.own.has(second)) return Promise.resolve();
    let write = this.writing.get(second);
    if (!write) {
      write = this.kysely
        .insertInto('guard_future_seconds')
        .values({ second })
        .onConflict((oc) => oc.doNothing())
        .execute()
        .then(() => void this.own.add(second))
        .finally(() => this.writing.delete(second));
      this.writing.set(second, write);
    }
    return write;
  }

  /** Forgets seconds the timestamp window refuses anyway. */
  async purge(before: number): Promise<void> {
    for (const set of [this.own, this.inherited]) for (const s of set) if (s < before) set.delete(s);
    await this.kysely.deleteFrom('guard_future_seconds').where('second', '<', before).execute();
  }
}
