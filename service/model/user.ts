/** A subscriber, as the `users` table holds them. */
export interface User {
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
