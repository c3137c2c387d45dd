import type { ImportFile } from '../../../shared/import-export.ts';
import type { QueueKind } from '../../../shared/models.ts';
import { countOf } from '../../components/LiveRegion.tsx';
import { chosenTitle, ratingsToSet, refsToQueue, type ReviewOptions, type ReviewRow } from './review-state.ts';

const QUEUE_WORDS: Record<QueueKind, string> = {
  instant: 'instant queue',
  disc: 'disc queue',
};

/**
 * Where the confirmed titles go (the instant or the disc queue, the top or the bottom), whether
 * the file's ratings are set, what confirming will do in words, and the one Confirm.
 */
export function ImportTarget({
  file,
  rows,
  options,
  queued,
  onChange,
  onConfirm,
  onStartOver,
}: {
  file: ImportFile;
  rows: readonly ReviewRow[];
  options: ReviewOptions;
  queued: ReadonlySet<string>;
  onChange(options: ReviewOptions): void;
  onConfirm(): void;
  onStartOver(): void;
}) {
  const set = (change: Partial<ReviewOptions>) => onChange({ ...options, ...change });
  const refs = refsToQueue(rows, options);
  const fresh = refs.filter((ref) => !queued.has(ref));
  const unoffered = rows.filter(
    (r) => r.chosen !== null && fresh.includes(r.chosen) && chosenTitle(r)?.placement[options.kind] === 'never',
  ).length;
  const toAdd = fresh.length - unoffered;
  const ratings = ratingsToSet(rows, options).length;
  const nothing = toAdd === 0 && ratings === 0;
  const confirmWords =
    [
      toAdd > 0 ? `Import ${countOf(toAdd, 'title')}` : '',
      ratings > 0 ? `${toAdd > 0 ? 'and set' : 'Set'} ${countOf(ratings, 'rating')}` : '',
    ]
      .filter(Boolean)
      .join(' ') || 'Import';

  return (
    <section id="import-confirm" className="import-target" aria-labelledby="import-confirm-heading" tabIndex={-1}>
      <h2 id="import-confirm-heading" className="section-title">
        Confirm
      </h2>
      <label className="import-check">
        <input type="checkbox" checked={options.addToQueue} onChange={(e) => set({ addToQueue: e.target.checked })} />
        {file.isList ? 'Add the titles to a queue' : 'Also add the rated titles to a queue'}
      </label>
      {options.addToQueue && (
        <div className="import-where">
          <fieldset className="import-radios">
            <legend className="field-label">Queue</legend>
            {(['instant', 'disc'] as const).map((kind) => (
              <label key={kind}>
                <input type="radio" name="import-kind" checked={options.kind === kind} onChange={() => set({ kind })} />
                {kind === 'instant' ? 'Instant queue' : 'Disc queue'}
              </label>
            ))}
          </fieldset>
          <fieldset className="import-radios">
            <legend className="field-label">Place them at</legend>
            {(['top', 'bottom'] as const).map((placement) => (
              <label key={placement}>
                <input
                  type="radio"
                  name="import-placement"
                  checked={options.placement === placement}
                  onChange={() => set({ placement })}
                />
                {placement === 'top' ? 'The top' : 'The bottom'}
              </label>
            ))}
          </fieldset>
        </div>
      )}
      {file.hasRatings && (
        <label className="import-check">
          <input type="checkbox" checked={options.setRatings} onChange={(e) => set({ setRatings: e.target.checked })} />
          Set my ratings from the file
        </label>
      )}
      <p className="import-plan" role="status">
        {planWords(options, toAdd, refs.length - fresh.length, unoffered, ratings)}
      </p>
      <div className="import-actions">
        <button type="button" className="button primary" disabled={nothing} onClick={onConfirm}>
          {confirmWords}
        </button>
        <button type="button" className="button subtle" onClick={onStartOver}>
          Choose another file
        </button>
      </div>
    </section>
  );
}

function planWords(
  options: ReviewOptions,
  toAdd: number,
  alreadyQueued: number,
  unoffered: number,
  ratings: number,
): string {
  const parts: string[] = [];
  if (options.addToQueue) {
    parts.push(
      toAdd > 0
        ? `${countOf(toAdd, 'title')} will go to the ${options.placement} of your ${QUEUE_WORDS[options.kind]}`
        : `No titles will be added to your ${QUEUE_WORDS[options.kind]}`,
    );
    if (alreadyQueued > 0)
      parts.push(
        `${countOf(alreadyQueued, 'title')} already there ${alreadyQueued === 1 ? 'stays' : 'stay'} where ${alreadyQueued === 1 ? 'it is' : 'they are'}`,
      );
    if (unoffered > 0)
      parts.push(
        `${countOf(unoffered, 'title')} not offered ${options.kind === 'instant' ? 'for streaming' : 'on disc'} ${unoffered === 1 ? 'is' : 'are'} left out`,
      );
  }
  if (ratings > 0) parts.push(`${countOf(ratings, 'rating')} will be set`);
  return parts.length === 0
    ? 'Nothing to import: choose titles above, or a queue.'
    : `${parts.join('; ')}. Nothing changes until you confirm.`;
}
