import type { ImportCandidate, Placement } from '../../../shared/import-export.ts';
import type { Availability, QueueKind, TitleSummary } from '../../../shared/models.ts';

/** The formats each queue holds. */
const QUEUE_FORMATS: Record<QueueKind, readonly string[]> = { instant: ['instant'], disc: ['DVD', 'Blu-ray'] };

/**
 * Where a title can go in a queue, from its availability windows (unix seconds): the available part
 * when a window of the queue's formats is open now, the saved part when one opens later, else
 * nowhere. Without windows (a service that did not expand them) the formats it lists are taken as
 * offered now: the service then has the last word.
 */
export function placementIn(
  kind: QueueKind,
  title: Pick<TitleSummary, 'formats'>,
  availability: readonly Availability[],
  now: number,
): Placement {
  const formats = QUEUE_FORMATS[kind];
  if (availability.length === 0) return title.formats.some((f) => formats.includes(f)) ? 'now' : 'never';
  const windows = availability.filter((a) => formats.includes(a.format));
  if (windows.some((a) => a.from <= now && (a.until === null || a.until > now))) return 'now';
  if (windows.some((a) => a.from > now)) return 'later';
  return 'never';
}

export function candidateOf(title: TitleSummary, availability: readonly Availability[], now: number): ImportCandidate {
  return {
    ref: title.ref,
    type: title.type,
    title: title.title,
    shortTitle: title.shortTitle,
    year: title.year,
    runtimeSeconds: title.runtimeSeconds,
    averageRating: title.averageRating,
    boxArt: title.boxArt,
    genres: title.genres,
    maturity: title.maturity,
    formats: title.formats,
    placement: {
      instant: placementIn('instant', title, availability, now),
      disc: placementIn('disc', title, availability, now),
    },
  };
}
