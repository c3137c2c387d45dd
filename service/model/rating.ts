/** A rating as handlers see it: stars 1–5 or `not_interested`. */
export type RatingValue = 1 | 2 | 3 | 4 | 5 | 'not_interested';

export interface Rating {
  titleId: number;
  value: RatingValue;
  created: number;
  updated: number;
}

/** A title the recommender proposes, with the rating it predicts. */
export interface Recommendation {
  titleId: number;
  predicted: number;
}
