import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { QueueItem, QueueKind } from '../../../shared/models.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { BulkProgress } from '../../components/queue/BulkProgress.tsx';
import { ConflictNotice } from '../../components/queue/ConflictNotice.tsx';
import { LeavingTimeline } from '../../components/queue/LeavingTimeline.tsx';
import { SavedTitles } from '../../components/queue/SavedTitles.tsx';
import { SelectionToolbar } from '../../components/queue/SelectionToolbar.tsx';
import { SortMenu } from '../../components/queue/SortMenu.tsx';
import { UndoToast } from '../../components/queue/UndoToast.tsx';
import { countOf } from '../../words.ts';
import { landFocus, queueListElement, titleOf, undoneTitle } from '../../components/queue/land-focus.ts';
import { usePreferences, useSetPreferences } from '../../queries/preferences.ts';
import { appErrorOf } from '../../queries/call.ts';
import { queueQueries, useCancelBulk } from '../../queries/queue.ts';
import { useQueueHistory } from '../../queries/queue-history.ts';
import { splitQueue } from '../../../shared/pure/queue-order.ts';
import { usePredictions } from '../../queries/queue-predictions.ts';
import { usePendingMarks } from '../../queries/queue-pending.ts';
import { statusKeys, statusQueries } from '../../queries/status.ts';
import { useNavigation } from '../../router.ts';
import { QueueSkeleton } from './QueueSkeleton.tsx';
import { SortableQueueList } from './SortableQueueList.tsx';
import { useQueueActions } from './useQueueActions.ts';
import { useQueueShortcuts } from './useQueueShortcuts.ts';
import { useSelection } from './useSelection.ts';

export const QUEUE_NAMES: Record<QueueKind, string> = { instant: 'Instant queue', disc: 'Disc queue' };

const isAvailableNow = (item: QueueItem) => /^available/.test(item.availability);

/** Every title of the queue, as the sidebar counts them, and how many of them are saved: "212 titles · 3 saved". */
function queueCount(total: number, saved: number): string {
  return saved > 0 ? `${countOf(total, 'title')} · ${saved.toLocaleString()} saved` : countOf(total, 'title');
}

/**
 * The queue manager: the ordered queue as a sortable virtual list, a toolbar for the selection,
 * sorting, undo/redo, the titles saved for later apart, and quiet notices for conflicts, bulk
 * progress and edits waiting offline.
 */
export function QueueManager({ kind }: { kind: QueueKind }) {
  const name = QUEUE_NAMES[kind];
  const client = useQueryClient();
  const nav = useNavigation();
  const query = useQuery(queueQueries.list(kind));
  const [availableOnly, setAvailableOnly] = useState(false);
  const { available, saved } = useMemo(() => splitQueue(query.data?.items ?? []), [query.data]);
  const shown = useMemo(
    () => (availableOnly ? available.filter(isAvailableNow) : available),
    [available, availableOnly],
  );
  const order = useMemo(() => shown.map((i) => i.ref), [shown]);
  const predictions = usePredictions(useMemo(() => available.map((i) => i.ref), [available]));
  const selection = useSelection(order);
  const actions = useQueueActions(kind, available, predictions);
  const history = useQueueHistory(kind);
  const conflict = useQuery(statusQueries.conflict()).data;
  const progress = useQuery(statusQueries.progress(kind)).data;
  const cancelBulk = useCancelBulk(kind);
  const pending = usePendingMarks(kind);
  // The timeline's folding is a preference the core keeps (it outlives a restart).
  const { timelineCollapsed } = usePreferences();
  const { set: setPreferences } = useSetPreferences();
  // Read by the shortcuts at each key (a ref: a drag starting re-renders nothing here).
  const dragging = useRef(false);
  const isDragging = useCallback(() => dragging.current, []);
  const onDragChange = useCallback((now: boolean) => {
    dragging.current = now;
  }, []);

  useQueueShortcuts(
    {
      selectAll: selection.selectAll,
      clearSelection: selection.clear,
      undo: () => void actions.undo(),
      redo: () => void actions.redo(),
    },
    isDragging,
  );

  const dismissConflict = useCallback(() => client.setQueryData(statusKeys.conflict(), null), [client]);
  const open = useCallback((item: QueueItem) => nav.openTitle(item.ref), [nav]);
  const openRef = useCallback((ref: string) => nav.openTitle(ref), [nav]);
  const sortable = !availableOnly || shown.length === available.length;
  const chosen = selection.selected;

  /** Undo from the toast: its button goes, so focus goes to the title the undo brings back or moves. */
  function undoFromToast() {
    const control = document.activeElement;
    const entry = history.undo.at(-1);
    const ref = entry ? undoneTitle(entry) : null;
    void actions.undo();
    landFocus(control, () => (ref ? titleOf(ref) : null) ?? queueListElement());
  }

  /** The toast closing (dismissed, or its time up) with focus inside hands focus to the list. */
  const { closeToast } = actions;
  const closeToastKeepingFocus = useCallback(() => {
    const control = document.activeElement;
    const inToast = control?.closest('.queue-toast') !== null && control !== null;
    closeToast();
    if (inToast) landFocus(control, queueListElement);
  }, [closeToast]);

  return (
    <section className="screen queue-screen" aria-labelledby="screen-heading">
      <header className="queue-header">
        <h1 id="screen-heading" className="screen-title" tabIndex={-1}>
          {name}
        </h1>
        <span className="muted queue-count">{query.data ? queueCount(query.data.total, saved.length) : ''}</span>
        <div className="queue-header-actions">
          <label className="queue-filter">
            <input type="checkbox" checked={availableOnly} onChange={(e) => setAvailableOnly(e.target.checked)} />
            Available now only
          </label>
          <SortMenu label="Sort queue" disabled={available.length < 2} onSort={(key) => actions.sort(key)} />
          {/* aria-disabled, not disabled: the last undo leaves focus on its button, not on the page. */}
          <span className="queue-history-buttons">
            <button
              type="button"
              className="button subtle small"
              aria-disabled={history.undo.length === 0}
              onClick={() => void actions.undo()}
              aria-keyshortcuts="Control+Z Meta+Z"
            >
              Undo
            </button>
            <button
              type="button"
              className="button subtle small"
              aria-disabled={history.redo.length === 0}
              onClick={() => void actions.redo()}
              aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z"
            >
              Redo
            </button>
          </span>
          <button type="button" className="button subtle small" onClick={() => nav.go({ name: 'import', kind })}>
            Import…
          </button>
          <button type="button" className="button subtle small" onClick={() => nav.go({ name: 'export', what: kind })}>
            Export…
          </button>
        </div>
      </header>

      {chosen.size > 0 && (
        <SelectionToolbar
          count={chosen.size}
          onTop={() => actions.moveSelection(chosen, 'top')}
          onBottom={() => actions.moveSelection(chosen, 'bottom')}
          onSort={(key) => actions.sort(key, chosen)}
          onRemove={() => {
            const control = document.activeElement;
            actions.removeSelection(chosen);
            selection.clear();
            landFocus(control, queueListElement);
          }}
          onClear={() => {
            const control = document.activeElement;
            selection.clear();
            landFocus(control, queueListElement);
          }}
        />
      )}
      {progress && !progress.finished && progress.kind === kind && (
        <BulkProgress progress={progress} onCancel={() => cancelBulk.mutate()} />
      )}
      {conflict && conflict.kind === kind && (
        <ConflictNotice message={conflict.message} applied={conflict.applied} onDismiss={dismissConflict} />
      )}
      {actions.error && <ErrorMessage error={actions.error} compact onRetry={actions.clearError} />}

      {query.data && (
        <LeavingTimeline
          items={query.data.items}
          onOpen={openRef}
          collapsed={timelineCollapsed}
          onCollapsedChange={(collapsed) => setPreferences({ timelineCollapsed: collapsed })}
        />
      )}
      {query.isPending && <QueueSkeleton />}
      {query.isError && !query.data && (
        <ErrorMessage error={appErrorOf(query.error)} onRetry={() => void query.refetch()} />
      )}
      {query.data && available.length === 0 && saved.length === 0 && (
        <p className="queue-empty">
          Your {name.toLowerCase()} is empty. Add titles from Browse or Search; they appear here in the order you will
          watch them.
        </p>
      )}
      {query.data && available.length > 0 && (
        <SortableQueueList
          label={name}
          items={shown}
          selection={selection}
          predictions={predictions}
          pending={pending}
          sortable={sortable}
          onMove={actions.moveTo}
          onMoveBy={actions.moveBy}
          onRemove={actions.remove}
          onOpen={open}
          onDragChange={onDragChange}
        />
      )}
      {query.data && !availableOnly && (
        <SavedTitles kind={kind} items={saved} onOpen={open} onRemove={actions.remove} onMoveIn={actions.moveIn} />
      )}
      {actions.toast && (
        <UndoToast
          message={actions.toast.message}
          onUndo={actions.toast.undoable ? undoFromToast : undefined}
          onClose={closeToastKeepingFocus}
        />
      )}
    </section>
  );
}
