import { useEffect, useRef, type RefObject } from 'react';
import type { QueueKind } from '../../../shared/models.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { BulkProgress } from '../../components/queue/BulkProgress.tsx';
import { cancelImport, useImportProgress, type HandedFile } from '../../queries/import.ts';
import { useQueueProgress } from '../../queries/status.ts';
import { FileChooser } from './FileChooser.tsx';
import type { ImportState } from './import-phase.ts';
import { ImportProgressView } from './ImportProgressView.tsx';

/** The first words of a phase: focus lands on them when the phase begins. */
type Start = RefObject<HTMLParagraphElement | null>;

/** Choosing a file, with why the last one was not read (a refusal in words, or a handed file's problem). */
export function ChooseView({
  state,
  handedProblem,
  start,
  onFile,
}: {
  state: Extract<ImportState, { phase: 'choose' }>;
  handedProblem: string | null;
  start: Start;
  onFile: (file: HandedFile) => void;
}) {
  return (
    <>
      <p className="screen-lede" ref={start} tabIndex={-1}>
        Bring in a watchlist, your ratings or any list of films: Marquee matches each title to the catalog and shows you
        the matches before anything changes.
      </p>
      {state.problem && <ErrorMessage error={state.problem} compact />}
      {handedProblem && (
        <p className="error-message compact" role="alert">
          {handedProblem}
        </p>
      )}
      <FileChooser onFile={onFile} />
    </>
  );
}

/** The file read and matched to the catalog, with progress and Cancel. */
export function MatchingView({ name, start }: { name: string; start: Start }) {
  const progress = useImportProgress();
  return (
    <>
      <p className="screen-lede" ref={start} tabIndex={-1}>
        Reading “{name}”…
      </p>
      <ImportProgressView
        progress={progress?.phase === 'matching' ? progress : null}
        fallback="Reading the file…"
        onCancel={() => void cancelImport()}
      />
    </>
  );
}

/** The confirmed change under way: the queue's own progress while it is reordered, then saving and rating. */
export function ApplyingView({ kind, start }: { kind: QueueKind; start: Start }) {
  const progress = useImportProgress();
  const queueProgress = useQueueProgress(kind);
  return (
    <>
      <p className="screen-lede" ref={start} tabIndex={-1}>
        Importing into your {kind === 'instant' ? 'instant' : 'disc'} queue…
      </p>
      {queueProgress && !queueProgress.finished ? (
        <BulkProgress progress={queueProgress} onCancel={() => void cancelImport()} />
      ) : (
        <ImportProgressView
          progress={progress?.phase === 'saving' || progress?.phase === 'rating' ? progress : null}
          fallback="Sending the change…"
          onCancel={() => void cancelImport()}
        />
      )}
    </>
  );
}

/** A file handed over while a review is open: replace the review with it, or keep the review. */
export function ReplaceReview({
  name,
  waiting,
  onReplace,
  onKeep,
}: {
  name: string;
  waiting: string;
  onReplace: () => void;
  onKeep: () => void;
}) {
  const keep = useRef<HTMLButtonElement>(null);
  // The question comes from a drop, away from the keyboard's place: focus goes to the safe answer.
  useEffect(() => keep.current?.focus(), []);
  return (
    <div className="import-replace" role="group" aria-labelledby="import-replace-words">
      <p id="import-replace-words" role="alert">
        Import “{waiting}” instead? The review of “{name}”, with the choices you made in it, would be closed.
      </p>
      <div className="import-actions">
        <button type="button" className="button" onClick={onReplace}>
          Import “{waiting}”
        </button>
        <button ref={keep} type="button" className="button primary" onClick={onKeep}>
          Keep this review
        </button>
      </div>
    </div>
  );
}
