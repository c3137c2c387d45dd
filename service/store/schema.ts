import type { TitleType } from '../../shared/protocol/index.ts';
import type { AccessTokensTable } from './tokens.ts';
import type { QueueItemsTable, QueuesTable } from './queues.ts';
import type { RatingsTable } from './ratings.ts';
import type { RentalsTable } from './history.ts';
import type { ListItemsTable, ListsTable } from './lists.ts';

/**
 * The database as Kysely sees it. Catalog tables are written by the seeders only; times are
 * Unix seconds. Per-title detail lists that are only ever read whole (screen formats, languages,
 * awards) live as JSON text in `title_details`.
 */
export interface TitlesTable {
  id: number;
  type: TitleType;
  title: string;
  short_title: string;
  release_year: number | null;
  runtime: number | null; // seconds
  average_rating: number | null; // 1.0–5.0
  mpaa_rating: string | null;
  tv_rating: string | null;
  /** season → its series; program → its season; disc → the movie or season it belongs to. */
  parent_id: number | null;
  /** The series a season or episode belongs to (saves a hop when building URLs). */
  series_id: number | null;
  /** Season number, episode number or disc number within the parent. */
  sequence: number | null;
  synopsis: string;
  short_synopsis: string;
  updated: number;
}

export interface TitleGenresTable {
  title_id: number;
  genre: string;
}

export interface AvailabilityTable {
  title_id: number;
  format: string; // instant | DVD | Blu-ray
  available_from: number;
  available_until: number | null;
}

export interface CreditsTable {
  title_id: number;
  person_id: number;
  role: 'cast' | 'director';
  ordinal: number;
}

export interface PeopleTable {
  id: number;
  name: string;
  bio: string;
}

export interface SimilarsTable {
  title_id: number;
  similar_id: number;
  ordinal: number;
}

export interface TitleDetailsTable {
  title_id: number;
  /** JSON: ScreenFormat[] */
  screen_formats: string;
  /** JSON: LanguageAudio[] */
  languages_and_audio: string;
  /** JSON: Award[] */
  awards: string;
  /** JSON: number[] — ids of titles that are this title's bonus materials */
  bonus_materials: string;
}

export interface ConsumersTable {
  key: string;
  secret: string;
  name: string;
  /** 1: an OAuth 1.0 client that may skip the verifier (CONTRACT.md §5). */
  legacy: number;
  revoked: number;
  per_second: number | null;
  per_day: number | null;
  created: number;
  /** An OAuth 1.0 consumer's registered callback origin (`https://app.example`), or null. */
  callback_origin: string | null;
}

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

export interface UsersTable {
  id: string;
  login: string;
  /** scrypt$<salt hex>$<hash hex> */
  password_hash: string;
  first_name: string;
  last_name: string;
  nickname: string;
  can_instant_watch: number;
  max_maturity_level: number;
  /** JSON: formats in order of preference, e.g. ["instant","DVD"] */
  preferred_formats: string;
  accepted_tos: number;
  /** Signs the subscriber's Atom feed URLs (no OAuth signature needed for those). */
  feed_token: string;
  created: number;
}

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

export interface MetaTable {
  key: string;
  value: string;
}

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
  queues: QueuesTable;
  queue_items: QueueItemsTable;
  ratings: RatingsTable;
  rentals: RentalsTable;
  lists: ListsTable;
  list_items: ListItemsTable;
}

/** Shapes of the JSON detail columns. */
export interface ScreenFormat { format: string; screen_format: string }
export interface LanguageAudio { format: string; language: string; audio: string[] }
export interface Award { kind: 'winner' | 'nominee'; year: number; award: string }

