import type { QueueKind } from '../../model/queue.ts';
import type { TitleRecord } from '../../model/title.ts';
import type { User } from '../../model/user.ts';

/** Which format a title would be queued in and where it would go: the queue's writes and title states ask alike. */

export const DISC_FORMATS = ['DVD', 'Blu-ray'] as const;

/**
 * The delivery format a title would be queued in: `instant` for the instant queue; for the disc
 * queue the requested one, else the first of the subscriber's preferences the title has.
 */
export function formatFor(
  kind: QueueKind,
  t: TitleRecord,
  requested: string | undefined,
  user: User,
  now: number,
): string | undefined {
  if (kind === 'instant') return 'instant';
  if (requested) return requested;
  const preferred = (JSON.parse(user.preferred_formats) as string[]).filter((f) =>
    (DISC_FORMATS as readonly string[]).includes(f),
  );
  const order = [...new Set([...preferred, ...DISC_FORMATS])];
  const usable = order.filter((f) =>
    t.formats.some((w) => w.format === f && (w.available_until === null || w.available_until > now)),
  );
  return usable.find((f) => t.formats.some((w) => w.format === f && w.available_from <= now)) ?? usable[0];
}

/** Where a title would go in a queue: 'available', 'saved' (starts later), or null (not offered). */
export function placement(t: TitleRecord, format: string | undefined, now: number): 'available' | 'saved' | null {
  if (!format) return null;
  const w = t.formats.find((f) => f.format === format);
  if (!w) return null;
  if (w.available_until !== null && w.available_until <= now) return null;
  return w.available_from > now ? 'saved' : 'available';
}
