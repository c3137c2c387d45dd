import { SortMenu } from '../../components/queue/SortMenu.tsx';
import type { SortKey } from '../../queries/queue-sort.ts';

export interface QueueHeaderProps {
  name: string;
  /** "212 titles · 3 saved", or empty while the queue loads. */
  count: string;
  availableOnly: boolean;
  onAvailableOnly(only: boolean): void;
  canSort: boolean;
  onSort: (key: SortKey) => void;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onImport: () => void;
  onExport: () => void;
}

/** The queue's heading line: its name and count, the "available now" filter, Sort, Undo and Redo, Import and Export. */
export function QueueHeader(props: QueueHeaderProps) {
  return (
    <header className="queue-header">
      <h1 id="screen-heading" className="screen-title" tabIndex={-1}>
        {props.name}
      </h1>
      <span className="muted queue-count">{props.count}</span>
      <div className="queue-header-actions">
        <label className="queue-filter">
          <input
            type="checkbox"
            checked={props.availableOnly}
            onChange={(e) => props.onAvailableOnly(e.target.checked)}
          />
          Available now only
        </label>
        <SortMenu label="Sort queue" disabled={!props.canSort} onSort={props.onSort} />
        <UndoRedoButtons canUndo={props.canUndo} canRedo={props.canRedo} onUndo={props.onUndo} onRedo={props.onRedo} />
        <button type="button" className="button subtle small" onClick={props.onImport}>
          Import…
        </button>
        <button type="button" className="button subtle small" onClick={props.onExport}>
          Export…
        </button>
      </div>
    </header>
  );
}

function UndoRedoButtons({
  canUndo,
  canRedo,
  onUndo,
  onRedo,
}: Pick<QueueHeaderProps, 'canUndo' | 'canRedo' | 'onUndo' | 'onRedo'>) {
  // aria-disabled, not disabled: the last undo leaves focus on its button, not on the page.
  return (
    <span className="queue-history-buttons">
      <button
        type="button"
        className="button subtle small"
        aria-disabled={!canUndo}
        onClick={onUndo}
        aria-keyshortcuts="Control+Z Meta+Z"
      >
        Undo
      </button>
      <button
        type="button"
        className="button subtle small"
        aria-disabled={!canRedo}
        onClick={onRedo}
        aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z"
      >
        Redo
      </button>
    </span>
  );
}
