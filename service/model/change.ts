/** What a change event is about (store/migrations/011-changes.ts records each kind). */
export type ChangeKind = 'queue' | 'title_state' | 'rating' | 'catalog' | 'revoked';

/**
 * One row of the change table: something a subscriber's representations show changed, or the
 * catalog did (`userId` null), or an access token was revoked. `seq` orders them and is the
 * event's id on a change stream.
 */
export interface Change {
  seq: number;
  userId: string | null;
  kind: ChangeKind;
  /** queue, title_state: the queue kind; rating: the title id; catalog: 'generation'; revoked: the token. */
  subject: string;
  /** queue: its new version; title_state: the title id; rating: the stars (0 not interested; null cleared); catalog: the generation. */
  value: string | null;
  /** Unix seconds when it was recorded. */
  at: number;
}
