import { useCallback, useMemo } from 'react';
import type { QueueItem, QueueKind } from '../../../shared/models.ts';
import { SelectionToolbar } from '../../components/queue/SelectionToolbar.tsx';
import { UndoToast } from '../../components/queue/UndoToast.tsx';
import { useQueueHistory } from '../../queries/queue-history.ts';
import { usePredictions } from '../../queries/queue-predictions.ts';
import { useNavigation } from '../../router.ts';
import { countOf } from '../../words.ts';
import { QueueContent, QueueTimeline } from './QueueContent.tsx';
import { QueueHeader } from './QueueHeader.tsx';
import { QueueNotices } from './QueueNotices.tsx';
import { useFocusAfterEdits } from './useFocusAfterEdits.ts';
import { useQueueActions } from './useQueueActions.ts';
import { useQueueShortcuts } from './useQueueShortcuts.ts';
import { useQueueView } from './useQueueView.ts';
import { useSelection } from './useSelection.ts';

export const QUEUE_NAMES: Record<QueueKind, string> = { instant: 'Instant queue', disc: 'Disc queue' };

/** Every title of the queue, as the sidebar counts them, and how many of them are saved: "212 titles · 3 saved". */
function queueCount(total: number, saved: number): string {
  return saved > 0 ? `${countOf(total, 'title')} · ${saved.toLocaleString()} saved` : countOf(total, 'title');
}

/**
 * The queue manager: the ordered queue as a sortable virtual list, a toolbar for the selection,
 * sorting, undo/redo, the titles saved for later apart, and quiet notices for conflicts, bulk
 * progress and edits waiting offline. It wires the pieces: the view of the queue (useQueueView),
 * the edits (useQueueActions), where focus lands after them (useFocusAfterEdits), the keyboard.
 */
export function QueueManager({ kind }: { kind: QueueKind }) {
  const name = QUEUE_NAMES[kind];
  const nav = useNavigation();
  const view = useQueueView(kind);
  const { available, saved, query } = view;
  const predictions = usePredictions(useMemo(() => available.map((i) => i.ref), [available]));
  const selection = useSelection(view.order);
  const actions = useQueueActions(kind, available, predictions);
  const history = useQueueHistory(kind);
  const focus = useFocusAfterEdits(actions, history, selection);
  const onDragChange = useQueueShortcuts({
    selectAll: selection.selectAll,
    clearSelection: selection.clear,
    undo: () => void actions.undo(),
    redo: () => void actions.redo(),
  });
  const open = useCallback((item: QueueItem) => nav.openTitle(item.ref), [nav]);
  const openRef = useCallback((ref: string) => nav.openTitle(ref), [nav]);
  const chosen = selection.selected;

  return (
    <section className="screen queue-screen" aria-labelledby="screen-heading">
      <QueueHeader
        name={name}
        count={query.data ? queueCount(query.data.total, saved.length) : ''}
        availableOnly={view.availableOnly}
        onAvailableOnly={view.setAvailableOnly}
        canSort={available.length >= 2}
        onSort={(key) => actions.sort(key)}
        canUndo={history.undo.length > 0}
        canRedo={history.redo.length > 0}
        onUndo={() => void actions.undo()}
        onRedo={() => void actions.redo()}
        onImport={() => nav.go({ name: 'import', kind })}
        onExport={() => nav.go({ name: 'export', what: kind })}
      />
      {chosen.size > 0 && (
        <SelectionToolbar
          count={chosen.size}
          onTop={() => actions.moveSelection(chosen, 'top')}
          onBottom={() => actions.moveSelection(chosen, 'bottom')}
          onSort={(key) => actions.sort(key, chosen)}
          onRemove={focus.removeSelection}
          onClear={focus.clearSelection}
        />
      )}
      <QueueNotices kind={kind} error={actions.error} onDismissError={actions.clearError} />
      {query.data && <QueueTimeline items={query.data.items} onOpen={openRef} />}
      <QueueContent
        kind={kind}
        name={name}
        view={view}
        selection={selection}
        predictions={predictions}
        actions={actions}
        onOpen={open}
        onDragChange={onDragChange}
      />
      {actions.toast && (
        <UndoToast
          message={actions.toast.message}
          onUndo={actions.toast.undoable ? focus.undoFromToast : undefined}
          onClose={focus.closeToastKeepingFocus}
        />
      )}
    </section>
  );
}
