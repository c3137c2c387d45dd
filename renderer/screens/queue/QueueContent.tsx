import type { QueueItem, QueueKind } from '../../../shared/models.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { LeavingTimeline } from '../../components/queue/LeavingTimeline.tsx';
import { SavedTitles } from '../../components/queue/SavedTitles.tsx';
import { appErrorOf } from '../../queries/call.ts';
import { usePreferences, useSetPreferences } from '../../queries/preferences.ts';
import { usePendingMarks } from '../../queries/queue-pending.ts';
import type { Predictions } from '../../queries/queue-sort.ts';
import { QueueSkeleton } from './QueueSkeleton.tsx';
import { SortableQueueList } from './SortableQueueList.tsx';
import type { QueueActions } from './useQueueActions.ts';
import type { QueueView } from './useQueueView.ts';
import type { Selection } from './useSelection.ts';

/** What the queue holds, in the order it loads: a skeleton, a failure with Retry, the empty queue's words, or the list. */
export function QueueContent({
  kind,
  name,
  view,
  selection,
  predictions,
  actions,
  onOpen,
  onDragChange,
}: {
  kind: QueueKind;
  name: string;
  view: QueueView;
  selection: Selection;
  predictions: Predictions;
  actions: QueueActions;
  onOpen: (item: QueueItem) => void;
  onDragChange: (dragging: boolean) => void;
}) {
  const { query, available, saved } = view;
  const pending = usePendingMarks(kind);
  if (query.isPending) return <QueueSkeleton />;
  if (!query.data) {
    return query.isError ? <ErrorMessage error={appErrorOf(query.error)} onRetry={() => void query.refetch()} /> : null;
  }
  if (available.length === 0 && saved.length === 0) {
    return (
      <p className="queue-empty">
        Your {name.toLowerCase()} is empty. Add titles from Browse or Search; they appear here in the order you will
        watch them.
      </p>
    );
  }
  return (
    <>
      {available.length > 0 && (
        <SortableQueueList
          label={name}
          items={view.shown}
          selection={selection}
          predictions={predictions}
          pending={pending}
          sortable={view.sortable}
          onMove={actions.moveTo}
          onMoveBy={actions.moveBy}
          onRemove={actions.remove}
          onOpen={onOpen}
          onDragChange={onDragChange}
        />
      )}
      {!view.availableOnly && (
        <SavedTitles kind={kind} items={saved} onOpen={onOpen} onRemove={actions.remove} onMoveIn={actions.moveIn} />
      )}
    </>
  );
}

/** The leaving-and-arriving timeline, folded or not as the person last left it (a preference the core keeps). */
export function QueueTimeline({ items, onOpen }: { items: readonly QueueItem[]; onOpen: (ref: string) => void }) {
  const { timelineCollapsed } = usePreferences();
  const { set: setPreferences } = useSetPreferences();
  return (
    <LeavingTimeline
      items={items}
      onOpen={onOpen}
      collapsed={timelineCollapsed}
      onCollapsedChange={(collapsed) => setPreferences({ timelineCollapsed: collapsed })}
    />
  );
}
