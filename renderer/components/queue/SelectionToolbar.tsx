import type { SortKey } from '../../queries/queue-sort.ts';
import { SortMenu } from './SortMenu.tsx';

export interface SelectionToolbarProps {
  count: number;
  onTop: () => void;
  onBottom: () => void;
  onSort: (key: SortKey) => void;
  onRemove: () => void;
  onClear: () => void;
}

/** The bar that appears with a selection: bulk moves, sort, remove (each one edit, one undo step). */
export function SelectionToolbar({ count, onTop, onBottom, onSort, onRemove, onClear }: SelectionToolbarProps) {
  return (
    <div className="queue-toolbar" role="toolbar" aria-label="Selected titles">
      <span className="queue-toolbar-count" aria-live="polite">
        {count} selected
      </span>
      <button type="button" className="button small" onClick={onTop}>
        Move to top
      </button>
      <button type="button" className="button small" onClick={onBottom}>
        Move to bottom
      </button>
      <SortMenu label="Sort selection" onSort={onSort} />
      <button type="button" className="button small danger" onClick={onRemove}>
        Remove
      </button>
      <button type="button" className="button subtle small" onClick={onClear}>
        Clear selection
      </button>
    </div>
  );
}
