/** An application registered with the service, as the `consumers` table holds it. */
export interface Consumer {
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
