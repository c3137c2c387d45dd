import { Message } from '../../shared/protocol/index.ts';
import type { ServiceContext } from '../context.ts';
import type { Consumer } from '../store/consumers.ts';
import { chargeWindows, dayWindow, pruneQuota, secondWindow } from '../store/quota.ts';
import { ApiError } from './errors.ts';

/** Requests a consumer may make per second when its `per_second` is null. */
export const DEFAULT_PER_SECOND = 20;
/** Requests a consumer may make per UTC day when its `per_day` is null. */
export const DEFAULT_PER_DAY = 100_000;

const SECONDS_PER_DAY = 86_400;

/**
 * Charges one request to the consumer's quota (CONTRACT §6) or throws the contract's 403 with a
 * `Retry-After` (seconds until the window that refused it resets). Called once per authenticated
 * request, so a request counts once however many expansions it carries.
 *
 * Budgets: a consumer's `per_second` / `per_day` when set, else the defaults above. null means
 * "the default"; any number is the budget itself, so 0 refuses every request (a suspended
 * consumer). The per-second budget is checked first: a request it refuses does not touch the
 * day counter, so bursts over the per-second limit cost nothing of the day's budget. Both windows
 * are charged in one statement (one database round trip per request; pruning adds one a minute).
 */
export async function chargeQuota(svc: ServiceContext, consumer: Consumer, now: number): Promise<void> {
  await pruneQuota(svc.db, now);
  const perSecond = consumer.per_second ?? DEFAULT_PER_SECOND;
  const perDay = consumer.per_day ?? DEFAULT_PER_DAY;

  const charged = await chargeWindows(svc.db, consumer.key, secondWindow(now), dayWindow(now), perSecond);
  if (charged.second > perSecond || charged.day === undefined) {
    throw new ApiError(403, Message.overQps, undefined, { 'retry-after': '1' });
  }
  if (charged.day > perDay) {
    throw new ApiError(403, Message.overQpd, undefined, { 'retry-after': String(secondsToUtcMidnight(now)) });
  }
}

/** Seconds from `now` to the next UTC midnight (1…86400). */
export function secondsToUtcMidnight(now: number): number {
  return SECONDS_PER_DAY - (((now % SECONDS_PER_DAY) + SECONDS_PER_DAY) % SECONDS_PER_DAY);
}
