import type { ImportFile } from '../../../shared/import-export.ts';
import type { QueueKind } from '../../../shared/models.ts';
import { countOf } from '../../words.ts';
import { OTHER_QUEUE, type ReviewOptions, type Tally } from './review-state.ts';

const QUEUE_WORDS: Record<QueueKind, string> = {
  instant: 'instant queue',
  disc: 'disc queue',
};
const OFFERED_BY: Record<QueueKind, string> = { instant: 'for streaming', disc: 'on disc' };

/**
 * Where the confirmed titles go (the instant or the disc queue, the top or the bottom; titles only
 * the other queue offers, there), whether the file's ratings are set, what confirming will do in
 * words (from the review's tally, so it follows every choice), and the one Confirm.
 */
export function ImportTarget({
  file,
  options,
  sums,
  onChange,
  onConfirm,
  onStartOver,
}: {
  file: ImportFile;
  options: ReviewOptions;
  sums: Tally;
  onChange: (options: ReviewOptions) => void;
  onConfirm: () => void;
  onStartOver: () => void;
}) {
  const set = (change: Partial<ReviewOptions>) => onChange({ ...options, ...change });
  const other = OTHER_QUEUE[options.kind];
  const elsewhere = options.otherQueue ? sums.onlyInOther : 0;
  const nothing = sums.toAdd === 0 && elsewhere === 0 && sums.ratings === 0;
  const confirmWords =
    [
      sums.toAdd + elsewhere > 0 ? `Import ${countOf(sums.toAdd + elsewhere, 'title')}` : '',
      sums.ratings > 0 ? `${sums.toAdd + elsewhere > 0 ? 'and set' : 'Set'} ${countOf(sums.ratings, 'rating')}` : '',
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
          {sums.onlyInOther > 0 && (
            <label className="import-check">
              <input
                type="checkbox"
                checked={options.otherQueue}
                onChange={(e) => set({ otherQueue: e.target.checked })}
              />
              Put the {countOf(sums.onlyInOther, 'title')} offered only {OFFERED_BY[other]} in my {QUEUE_WORDS[other]}
            </label>
          )}
        </div>
      )}
      {file.hasRatings && (
        <label className="import-check">
          <input type="checkbox" checked={options.setRatings} onChange={(e) => set({ setRatings: e.target.checked })} />
          Set my ratings from the file
        </label>
      )}
      <p className="import-plan" role="status">
        {planWords(options, sums)}
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

function planWords(options: ReviewOptions, sums: Tally): string {
  const { kind } = options;
  const other = OTHER_QUEUE[kind];
  const parts: string[] = [];
  if (options.addToQueue) {
    parts.push(
      sums.toAdd > 0
        ? `${countOf(sums.toAdd, 'title')} will go to the ${options.placement} of your ${QUEUE_WORDS[kind]}`
        : `No titles will be added to your ${QUEUE_WORDS[kind]}`,
    );
    if (sums.alreadyQueued > 0)
      parts.push(
        `${countOf(sums.alreadyQueued, 'title')} already there ${sums.alreadyQueued === 1 ? 'stays' : 'stay'} where ${sums.alreadyQueued === 1 ? 'it is' : 'they are'}`,
      );
    if (options.otherQueue && sums.onlyInOther > 0)
      parts.push(
        `${countOf(sums.onlyInOther, 'title')} offered only ${OFFERED_BY[other]} will go to your ${QUEUE_WORDS[other]}`,
      );
    if (sums.leftOut > 0)
      parts.push(
        `${countOf(sums.leftOut, 'title')} not offered ${OFFERED_BY[kind]} ${sums.leftOut === 1 ? 'is' : 'are'} left out`,
      );
  }
  if (sums.ratings > 0) parts.push(`${countOf(sums.ratings, 'rating')} will be set`);
  if (sums.replacing > 0)
    parts.push(`${sums.replacing === 1 ? 'one replaces a rating' : `${sums.replacing} replace ratings`} you gave`);
  return parts.length === 0
    ? 'Nothing to import: choose titles above, or a queue.'
    : `${parts.join('; ')}. Nothing changes until you confirm.`;
}
