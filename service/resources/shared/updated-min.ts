import { ApiError } from '../../model/api-error.ts';
import type { RequestContext } from '../../http/route.ts';

/** `updated_min` (Unix seconds) or undefined; anything but digits is 400. */
export function updatedMinOf(ctx: RequestContext): number | undefined {
  const raw = ctx.params.get('updated_min');
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,12}$/.test(raw)) throw ApiError.invalid('updated_min');
  return Number(raw);
}
