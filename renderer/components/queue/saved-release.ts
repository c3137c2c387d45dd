/**
 * When a saved title can join a queue's order: the window of the format the queue is for (the
 * instant queue streams; the disc queue ships the entry's disc, else the other disc), never the
 * first window of any format (a Blu-ray date is no answer for the instant queue).
 */
import type { Availability, QueueKind } from '../../../shared/models.ts';

const DISC_FORMATS = ['DVD', 'Blu-ray'];

export interface QueueRelease {
  /** The format the title can be queued in now (its window is open), else null. */
  openFormat: string | null;
  /** When the queue's format starts (unix seconds): the open window's start, else the first to come; null when none is known. */
  from: number | null;
}

/** The formats that serve a queue, the entry's own first. */
export function queueFormats(kind: QueueKind, entryFormat: string): string[] {
  if (kind === 'instant') return ['instant'];
  return [...new Set([entryFormat, ...DISC_FORMATS].filter((f) => DISC_FORMATS.includes(f)))];
}

const sameFormat = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The queue's release of a title from its windows at `now` (unix seconds); ended windows count for nothing. */
export function queueRelease(
  windows: readonly Availability[],
  kind: QueueKind,
  entryFormat: string,
  now: number,
): QueueRelease {
  const usable = queueFormats(kind, entryFormat).flatMap((format) =>
    windows.filter((w) => sameFormat(w.format, format) && (w.until === null || w.until > now)),
  );
  const open = usable.find((w) => w.from <= now);
  if (open) return { openFormat: open.format, from: open.from };
  const starts = usable.map((w) => w.from);
  return { openFormat: null, from: starts.length ? Math.min(...starts) : null };
}
