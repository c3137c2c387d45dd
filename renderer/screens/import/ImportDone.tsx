import type { ImportOutcome } from '../../../shared/import-export.ts';
import { countOf } from '../../components/LiveRegion.tsx';

const QUEUE_WORDS = { instant: 'instant queue', disc: 'disc queue' } as const;

/** What the import did, in words, with Undo (everything it did) and the way to the queue. */
export function ImportDone({
  outcome,
  placement,
  undone,
  undoing,
  onUndo,
  onOpenQueue,
  onAnother,
}: {
  outcome: ImportOutcome;
  placement: 'top' | 'bottom';
  undone: boolean;
  undoing: boolean;
  onUndo(): void;
  onOpenQueue(): void;
  onAnother(): void;
}) {
  return (
    <div className="import-done">
      <p className="import-done-words" role="status">
        {undone ? 'The import was undone: your queue and ratings are as they were.' : doneWords(outcome, placement)}
      </p>
      {!undone && outcome.skipped.length > 0 && (
        <ul className="import-left-out small">
          {outcome.skipped.map((s) => (
            <li key={s.ref}>
              “{s.title}”{' '}
              {s.reason === 'queued'
                ? 'was already in your queue: it stays where it was.'
                : `is not offered ${outcome.kind === 'instant' ? 'for streaming' : 'on disc'}: left out.`}
            </li>
          ))}
        </ul>
      )}
      <div className="import-actions">
        {!undone && (
          <button type="button" className="button" onClick={onUndo} disabled={undoing}>
            {undoing ? 'Undoing…' : 'Undo import'}
          </button>
        )}
        <button type="button" className="button primary" onClick={onOpenQueue}>
          Open the {QUEUE_WORDS[outcome.kind]}
        </button>
        <button type="button" className="button subtle" onClick={onAnother}>
          Import another file
        </button>
      </div>
    </div>
  );
}

function doneWords(o: ImportOutcome, placement: 'top' | 'bottom'): string {
  const parts: string[] = [];
  if (o.placed.length > 0)
    parts.push(`Added ${countOf(o.placed.length, 'title')} to the ${placement} of your ${QUEUE_WORDS[o.kind]}`);
  if (o.saved.length > 0) parts.push(`${countOf(o.saved.length, 'title')} still to come went to Saved`);
  if (o.rated.length > 0) parts.push(`set ${countOf(o.rated.length, 'rating')}`);
  const done = parts.length > 0 ? `${parts.join('; ')}.` : 'Nothing needed changing.';
  return o.cancelled ? `You stopped the import. ${done}` : done.charAt(0).toUpperCase() + done.slice(1);
}
