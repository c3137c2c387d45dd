import type { ImportOutcome } from '../../../shared/import-export.ts';
import type { QueueKind } from '../../../shared/models.ts';
import { countOf } from '../../words.ts';

const QUEUE_WORDS = { instant: 'instant queue', disc: 'disc queue' } as const;

/**
 * What the import did, in words (each queue it changed), with Undo (everything it did) and the way
 * to the queue. The first outcome is the queue the person chose; a second one is the other queue,
 * which took the titles only it offers.
 */
export function ImportDone({
  outcomes,
  placement,
  undone,
  undoing,
  onUndo,
  onOpenQueue,
  onAnother,
}: {
  outcomes: ImportOutcome[];
  placement: 'top' | 'bottom';
  undone: boolean;
  undoing: boolean;
  onUndo: () => void;
  onOpenQueue: (kind: QueueKind) => void;
  onAnother: () => void;
}) {
  const main = outcomes[0]!;
  const skipped = outcomes.flatMap((o) => o.skipped.map((s) => ({ ...s, kind: o.kind })));
  return (
    <div className="import-done">
      <p className="import-done-words" role="status">
        {undone ? 'The import was undone: your queue and ratings are as they were.' : doneWords(outcomes, placement)}
      </p>
      {!undone && skipped.length > 0 && (
        <ul className="import-left-out small">
          {skipped.map((s) => (
            <li key={`${s.kind} ${s.ref}`}>
              “{s.title}”{' '}
              {s.reason === 'queued'
                ? `was already in your ${QUEUE_WORDS[s.kind]}: it stays where it was.`
                : `is not offered ${s.kind === 'instant' ? 'for streaming' : 'on disc'}: left out.`}
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
        {outcomes.map((o) => (
          <button
            key={o.kind}
            type="button"
            className={o === main ? 'button primary' : 'button'}
            onClick={() => onOpenQueue(o.kind)}
          >
            Open the {QUEUE_WORDS[o.kind]}
          </button>
        ))}
        <button type="button" className="button subtle" onClick={onAnother}>
          Import another file
        </button>
      </div>
    </div>
  );
}

function doneWords(outcomes: ImportOutcome[], placement: 'top' | 'bottom'): string {
  const parts: string[] = [];
  for (const o of outcomes) {
    if (o.placed.length > 0)
      parts.push(`Added ${countOf(o.placed.length, 'title')} to the ${placement} of your ${QUEUE_WORDS[o.kind]}`);
    if (o.saved.length > 0)
      parts.push(`${countOf(o.saved.length, 'title')} still to come went to Saved in your ${QUEUE_WORDS[o.kind]}`);
  }
  const rated = outcomes.reduce((n, o) => n + o.rated.length, 0);
  if (rated > 0) parts.push(`set ${countOf(rated, 'rating')}`);
  const done = parts.length > 0 ? `${parts.join('; ')}.` : 'Nothing needed changing.';
  return outcomes.some((o) => o.cancelled) ? `You stopped the import. ${done}` : capitalised(done);
}

function capitalised(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
