import { useEffect, useRef, type RefObject } from 'react';
import type { QueueKind } from '../../../shared/models.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { useImportProgress } from '../../queries/import.ts';
import { useNavigation } from '../../router.ts';
import '../../styles/catalog.css';
import '../../styles/queue.css';
import '../../styles/import.css';
import { ImportDone } from './ImportDone.tsx';
import { ApplyingView, ChooseView, MatchingView, ReplaceReview } from './ImportPhaseViews.tsx';
import { ImportProgressView } from './ImportProgressView.tsx';
import { ImportReview } from './ImportReview.tsx';
import { useHandedFile } from './useHandedFile.ts';
import { useImportState, type ImportControls } from './useImportState.ts';

/**
 * Import a list: choose (or drop) a file → it is read and matched, with progress and Cancel →
 * the review (three groups, each row changeable; the target; one Confirm) → the change, with
 * progress and Cancel → what was done, with Undo. The import itself is kept per account
 * (useImportState.ts), so this screen only shows its phase. `kind`: the queue it was opened from.
 */
export function ImportScreen({ kind }: { kind?: QueueKind | undefined }) {
  const controls = useImportState(kind);
  const { state } = controls;
  const start = useRef<HTMLParagraphElement>(null);
  const handed = useHandedFile(controls);

  const { dispatch } = controls;
  useEffect(() => () => dispatch({ type: 'left' }), [dispatch]);

  // Each step starts with focus on its first words, so keyboard and screen-reader users follow along.
  useEffect(() => {
    start.current?.focus();
  }, [state.phase]);

  return (
    <section className="screen import-screen" aria-labelledby="screen-heading">
      <header className="screen-header">
        <h1 id="screen-heading" className="screen-title">
          Import a list
        </h1>
      </header>
      {state.phase === 'choose' && (
        <ChooseView state={state} handedProblem={handed.problem} start={start} onFile={controls.read} />
      )}
      {state.phase === 'matching' && <MatchingView name={state.name} start={start} />}
      {state.phase === 'review' && (
        <>
          <p className="visually-hidden" ref={start} tabIndex={-1}>
            Review the matches, then confirm at the end.
          </p>
          {state.problem && <ErrorMessage error={state.problem} compact />}
          {handed.waiting && (
            <ReplaceReview
              name={state.review.matched.name}
              waiting={handed.waiting.name}
              onReplace={handed.replace}
              onKeep={handed.keep}
            />
          )}
          <ImportReview
            review={state.review}
            dispatch={controls.dispatch}
            onConfirm={() => controls.confirm(state.review)}
            onStartOver={controls.startOver}
          />
        </>
      )}
      {state.phase === 'applying' && <ApplyingView kind={state.kind} start={start} />}
      {state.phase === 'done' && <DoneView state={state} controls={controls} start={start} />}
    </section>
  );
}

/** What the import did, with Undo and its progress. */
function DoneView({
  state,
  controls,
  start,
}: {
  state: Extract<ImportControls['state'], { phase: 'done' }>;
  controls: ImportControls;
  start: RefObject<HTMLParagraphElement | null>;
}) {
  const nav = useNavigation();
  const progress = useImportProgress();
  return (
    <>
      <p className="visually-hidden" ref={start} tabIndex={-1}>
        Import finished.
      </p>
      {state.undo === 'undoing' && (
        <ImportProgressView progress={progress?.phase === 'undoing' ? progress : null} fallback="Undoing the import…" />
      )}
      {state.problem && <ErrorMessage error={state.problem} compact />}
      <ImportDone
        outcomes={state.outcomes}
        placement={state.placement}
        undone={state.undo === 'undone'}
        undoing={state.undo === 'undoing'}
        onUndo={() => controls.undo(state.outcomes)}
        onOpenQueue={(kind) => nav.go({ name: 'queue', kind })}
        onAnother={controls.startOver}
      />
    </>
  );
}
