import type { Db } from '../db.ts';

/** One thing known about the subscriber's taste of a title. */
export interface TasteSignal {
  titleId: number;
  /** 1–5, on the star scale. */
  score: number;
  /** Explicit ratings weigh 1; weaker evidence less. */
  weight: number;
}

export type SignalSource = (db: Db, userId: string) => Promise<TasteSignal[]>;
