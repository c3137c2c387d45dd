import type { Consumer } from '../model/consumer.ts';
import type { Charge } from '../store/guard/types.ts';

/** Requests a consumer may make per second when its `per_second` is null. */
export const DEFAULT_PER_SECOND = 20;
/** Requests a consumer may make per UTC day when its `per_day` is null. */
export const DEFAULT_PER_DAY = 100_000;

/** A consumer's budgets: its own when set (0 refuses everything), else the defaults. */
export function budgetOf(consumer: Consumer): { perSecond: number; perDay: number } {
  return { perSecond: consumer.per_second ?? DEFAULT_PER_SECOND, perDay: consumer.per_day ?? DEFAULT_PER_DAY };
}

/**
 * Charges made while verifying a request (the nonce claim and the quota charge are one step of
 * the guard), keyed by the request's own copy of its consumer, for `chargeQuota` to judge.
 */
const charged = new WeakMap<Consumer, Charge>();

export function noteCharge(consumer: Consumer, charge: Charge): void {
  charged.set(consumer, charge);
}

export function takeCharge(consumer: Consumer): Charge | undefined {
  const charge = charged.get(consumer);
  charged.delete(consumer);
  return charge;
}
