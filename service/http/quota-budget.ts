import type { Consumer } from '../model/consumer.ts';

/** Requests a consumer may make per second when its `per_second` is null. */
export const DEFAULT_PER_SECOND = 20;
/** Requests a consumer may make per UTC day when its `per_day` is null. */
export const DEFAULT_PER_DAY = 100_000;

/** A consumer's budgets: its own when set (0 refuses everything), else the defaults. */
export function budgetOf(consumer: Consumer): { perSecond: number; perDay: number } {
  return { perSecond: consumer.per_second ?? DEFAULT_PER_SECOND, perDay: consumer.per_day ?? DEFAULT_PER_DAY };
}
