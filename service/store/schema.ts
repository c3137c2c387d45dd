import type { Generated } from 'kysely';
import type { Consumer } from '../model/consumer.ts';
import type { Person } from '../model/person.ts';
import type { Availability, Title, TitleDetails } from '../model/title.ts';
import type { User } from '../model/user.ts';

// One interface per table; a table whose row is a domain record (model/) is that record.

export type TitlesTable = Title;

export interface TitleGenresTable {
  title_id: number;
  genre: string;
}

export type AvailabilityTable = Availability;

export interface CreditsTable {
  title_id: number;
  person_id: number;
  role: 'cast' | 'director';
  ordinal: number;
}

export type PeopleTable = Person;

export interface SimilarsTable {
  title_id: number;
  similar_id: number;
  ordinal: number;
}

export type TitleDetailsTable = TitleDetails;

export type ConsumersTable = Consumer;

/** SQLite: a clean close's nonce set per 10 s of timestamps, packed 64-bit hashes (store/guard/nonce-set.ts). */
export interface GuardNonceBucketsTable {
  bucket: number;
  hashes: Uint8Array;
}

/** SQLite: a second ahead of the service's clock at which a nonce was accepted (store/guard/memory-saved.ts). */
export interface GuardFutureSecondsTable {
  second: number;
}

/** PostgreSQL: a nonce's 128-bit digest in its minute's partition of the ring (store/guard/pg-nonce-ring.ts). */
export interface GuardNoncesTable {
  slot: number;
  h: string;
}

/** PostgreSQL: the minute-bucket each ring partition was last cleared for. */
export interface GuardNonceSlotsTable {
  slot: number;
  bucket: number;
}

/** PostgreSQL: a consumer's count in its latest second (one row per consumer). */
export interface QuotaSecondsTable {
  consumer_key: string;
  second: number;
  count: number;
}

export type UsersTable = User;

export interface RequestTokensTable {
  token: string;
  secret: string;
  consumer_key: string;
  callback: string | null;
  user_id: string | null;
  verifier: string | null;
  created: number;
  used: number;
}

/** A consumer's request count in one day window, `d:<yyyy-mm-dd UTC>` (per-second counts: `quota_seconds`, or memory on SQLite). */
export interface QuotaCountersTable {
  consumer_key: string;
  window: string;
  count: number;
}

/** An access token a subscriber granted a consumer (migration 002-tokens). */
export interface AccessTokensTable {
  token: string;
  secret: string;
  consumer_key: string;
  user_id: string;
  created: number;
  /** 1 once the subscriber revoked it; kept so the token stays refused. */
  revoked: number;
}

/** One row per subscriber and queue kind; `version` is the queue's ETag (migration 005-queues). */
export interface QueuesTable {
  user_id: string;
  kind: string;
  version: number;
}

/**
 * A queue entry. `position` orders the available part: a sparse key (queue/keys.ts), shown to
 * readers as 1..n; null means the saved part of the queue.
 */
export interface QueueItemsTable {
  user_id: string;
  kind: string;
  title_id: number;
  position: number | null;
  /** instant | DVD | Blu-ray */
  format: string;
  added: number;
  updated: number;
}

/** A row of `ratings` (migration 006-ratings): `rating` 1–5 stars, 0 for "not interested". */
export interface RatingsTable {
  user_id: string;
  title_id: number;
  rating: number;
  created: number;
  updated: number;
}

/** A rental (migration 007-history): an instant watch, or a disc shipped and perhaps returned. */
export interface RentalsTable {
  id: Generated<number>;
  user_id: string;
  title_id: number;
  /** instant | DVD | Blu-ray */
  format: string;
  shipped_date: number | null;
  returned_date: number | null;
  watched_date: number | null;
  /** Seconds of the title watched (instant watches). */
  viewed_time: number | null;
  /** The time of the rental's latest event. */
  updated: number;
}

/** A subscriber's named list of titles (migration 007-history); ids are global. */
export interface ListsTable {
  id: Generated<number>;
  user_id: string;
  name: string;
  created: number;
  updated: number;
}

export interface ListItemsTable {
  list_id: number;
  /** 1-based order within the list. */
  position: number;
  title_id: number;
  added: number;
}

/** The change table a change stream reads (migrations/011-changes.ts); written by triggers only. */
export interface ChangesTable {
  seq: Generated<number>;
  user_id: string | null;
  kind: string;
  subject: string;
  value: string | null;
  at: number;
}

export interface MetaTable {
  key: string;
  value: string;
}

/**
 * The database as Kysely sees it. Catalog tables are written by the seeders only; times are
 * Unix seconds. Per-title detail lists that are only ever read whole (screen formats, languages,
 * awards) live as JSON text in `title_details`.
 */
export interface Database {
  titles: TitlesTable;
  title_genres: TitleGenresTable;
  availability: AvailabilityTable;
  credits: CreditsTable;
  people: PeopleTable;
  similars: SimilarsTable;
  title_details: TitleDetailsTable;
  consumers: ConsumersTable;
  guard_nonce_buckets: GuardNonceBucketsTable;
  guard_future_seconds: GuardFutureSecondsTable;
  guard_nonces: GuardNoncesTable;
  guard_nonce_slots: GuardNonceSlotsTable;
  quota_seconds: QuotaSecondsTable;
  access_tokens: AccessTokensTable;
  users: UsersTable;
  request_tokens: RequestTokensTable;
  quota_counters: QuotaCountersTable;
  meta: MetaTable;
  changes: ChangesTable;
  queues: QueuesTable;
  queue_items: QueueItemsTable;
  ratings: RatingsTable;
  rentals: RentalsTable;
  lists: ListsTable;
  list_items: ListItemsTable;
}
