import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { QueueKind } from '../../../shared/models.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { BulkProgress } from '../../components/queue/BulkProgress.tsx';
import { countOf } from '../../components/LiveRegion.tsx';
import { appErrorOf } from '../../queries/call.ts';
import {
  cancelImport,
  importKeys,
  importQueries,
  useApplyImport,
  useImportProgress,
  useReadAndMatch,
  useUndoImport,
  type HandedFile,
} from '../../queries/import.ts';
import { useQueueProgress } from '../../queries/status.ts';
import { useNavigation } from '../../router.ts';
import '../../styles/catalog.css';
import '../../styles/queue.css';
import '../../styles/import.css';
import { FileChooser } from './FileChooser.tsx';
import { ImportDone } from './ImportDone.tsx';
import { ImportProgressView } from './ImportProgressView.tsx';
import { ImportReview, type ConfirmedImport } from './ImportReview.tsx';

type Phase = 'choose' | 'matching' | 'review' | 'applying' | 'done';

/**
 * Import a list: choose (or drop) a file → it is read and matched, with progress and Cancel →
 * the review (three groups, each row changeable; the target; one Confirm) → the change, with
 * progress and Cancel → what was done, with Undo. `kind`: the queue it was opened from.
 */
export function ImportScreen({ kind }: { kind?: QueueKind }) {
  const client = useQueryClient();
  const nav = useNavigation();
  const handed = useQuery(importQueries.handedFile()).data;
  const read = useReadAndMatch();
  const apply = useApplyImport();
  const undo = useUndoImport();
  const progress = useImportProgress();
  const appliedKind = apply.variables?.kind ?? kind ?? 'instant';
  const queueProgress = useQueueProgress(appliedKind);
  const phase: Phase = apply.data
    ? 'done'
    : apply.isPending
      ? 'applying'
      : read.data
        ? 'review'
        : read.isPending
          ? 'matching'
          : 'choose';
  const phaseStart = useRef<HTMLParagraphElement>(null);
  const [handedProblem, setHandedProblem] = useState<string | null>(null);
  // A file handed over (dropped on the window, opened from the desktop menu): its problem shown at once.
  const [lastHanded, setLastHanded] = useState<HandedFile | null>(null);
  if (handed && handed !== lastHanded) {
    setLastHanded(handed);
    setHandedProblem(handed.problem ?? null);
  }

  const readFile = useCallback(
    (file: HandedFile) => {
      apply.reset();
      undo.reset();
      read.mutate(file);
    },
    [apply, undo, read],
  );
  const choose = (file: HandedFile) => {
    setHandedProblem(null);
    readFile(file);
  };
  const startOver = () => {
    read.reset();
    apply.reset();
    undo.reset();
  };

  // ... and taken from the cache once; a readable one is read and matched. Once means once per file,
  // whatever runs the effect again (StrictMode runs it twice on mount in a development build): the
  // core runs one import at a time, so a second match of the same file would stop the first.
  const taken = useRef<HandedFile | null>(null);
  useEffect(() => {
    if (!handed || handed === taken.current) return;
    taken.current = handed;
    client.setQueryData(importKeys.handedFile(), null);
    if (!handed.problem) readFile(handed);
  }, [handed, client, readFile]);

  // Each step starts with focus on its first words, so keyboard and screen-reader users follow along.
  useEffect(() => {
    phaseStart.current?.focus();
  }, [phase]);

  const confirm = ({ options, refs, ratings }: ConfirmedImport) => {
    const label = `Imported ${countOf(refs.length, 'title')}`;
    apply.mutate({
      kind: options.kind,
      placement: options.placement,
      refs,
      ratings,
      label,
    });
  };

  return (
    <section className="screen import-screen" aria-labelledby="screen-heading">
      <header className="screen-header">
        <h1 id="screen-heading" className="screen-title">
          Import a list
        </h1>
      </header>
      {phase === 'choose' && (
        <>
          <p className="screen-lede" ref={phaseStart} tabIndex={-1}>
            Bring in a watchlist, your ratings or any list of films: Marquee matches each title to the catalog and shows
            you the matches before anything changes.
          </p>
          {read.error && <ErrorMessage error={appErrorOf(read.error)} compact />}
          {handedProblem && (
            <p className="error-message compact" role="alert">
              {handedProblem}
            </p>
          )}
          <FileChooser onFile={choose} />
        </>
      )}
      {phase === 'matching' && (
        <>
          <p className="screen-lede" ref={phaseStart} tabIndex={-1}>
            Reading “{read.variables?.name}”…
          </p>
          <ImportProgressView
            progress={progress?.phase === 'matching' ? progress : null}
            fallback="Reading the file…"
            onCancel={() => void cancelImport()}
          />
        </>
      )}
      {phase === 'review' && read.data && (
        <>
          <p className="visually-hidden" ref={phaseStart} tabIndex={-1}>
            Review the matches, then confirm at the end.
          </p>
          {apply.error && <ErrorMessage error={appErrorOf(apply.error)} compact />}
          <ImportReview
            key={read.submittedAt}
            matched={read.data}
            preferredKind={kind}
            onConfirm={confirm}
            onStartOver={startOver}
          />
        </>
      )}
      {phase === 'applying' && (
        <>
          <p className="screen-lede" ref={phaseStart} tabIndex={-1}>
            Importing into your {appliedKind === 'instant' ? 'instant' : 'disc'} queue…
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
      )}
      {phase === 'done' && apply.data && (
        <>
          <p className="visually-hidden" ref={phaseStart} tabIndex={-1}>
            Import finished.
          </p>
          {undo.isPending && (
            <ImportProgressView
              progress={progress?.phase === 'undoing' ? progress : null}
              fallback="Undoing the import…"
            />
          )}
          {undo.error && <ErrorMessage error={appErrorOf(undo.error)} compact />}
          <ImportDone
            outcome={apply.data}
            placement={apply.variables!.placement}
            undone={undo.isSuccess}
            undoing={undo.isPending}
            onUndo={() => undo.mutate(apply.data!)}
            onOpenQueue={() => nav.go({ name: 'queue', kind: apply.data!.kind })}
            onAnother={startOver}
          />
        </>
      )}
    </section>
  );
}
