import { Message } from '../../shared/protocol/index.ts';
import type { ServiceContext } from '../context.ts';
import type { AuthContext } from '../oauth/verify.ts';
import type { Charge } from '../model/admission.ts';
import type { Consumer } from '../model/consumer.ts';
import { ApiError } from '../model/api-error.ts';
import { budgetOf } from './quota-budget.ts';

export { DEFAULT_PER_DAY, DEFAULT_PER_SECOND } from './quota-budget.ts';

const SECONDS_PER_DAY = 86_400;

/**
 * Charges one request to the consumer's quota (CONTRACT §6) or throws the contract's 403 with a
 * `Retry-After` (seconds until the window that refused it resets). Called once per authenticated
 * request, so a request counts once however many expansions it carries.
 *
 * Budgets: a consumer's `per_second` / `per_day` when set, else the defaults above. null means
 * "the default"; any number is the budget itself, so 0 refuses every request (a suspended
 * consumer). The per-second budget is checked first: a request it refuses does not touch the
 * day counter, so bursts over the per-second limit cost nothing of the day's budget.
 *
 * A signed request was already charged by the guard when its nonce was claimed (store/guard: in
 * memory on SQLite, in the nonce's own statement on PostgreSQL), and verification returned that
 * charge in `auth.charge`; only key-level requests are charged here.
 */
export async function chargeQuota(svc: ServiceContext, auth: AuthContext, now: number): Promise<void> {
  const charged = auth.charge ?? (await svc.db.guard.charge(auth.consumer.key, budgetOf(auth.consumer).perSecond, now));
  judgeCharge(auth.consumer, charged, now);
}

/** Throws the contract's 403 when `charged` is over either of the consumer's budgets (the kept-GET path judges with it too). */
export function judgeCharge(consumer: Consumer, charged: Charge, now: number): void {
  const { perSecond, perDay } = budgetOf(consumer);
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
