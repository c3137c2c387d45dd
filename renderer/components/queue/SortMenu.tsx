import { useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { SORT_LABELS, type SortKey } from '../../queries/queue-sort.ts';

const KEYS = Object.keys(SORT_LABELS) as SortKey[];

/**
 * "Sort ▾": a disclosure button opening a short list of orders (a popover of buttons, so every
 * choice is a named button for keyboards and screen readers). Escape or a click outside closes it.
 */
export function SortMenu({
  label,
  onSort,
  disabled,
}: {
  label: string;
  onSort: (key: SortKey) => void;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  /** Opening moves focus to the first order, as the user asked for the list. */
  function toggle() {
    if (open) {
      setOpen(false);
      return;
    }
    flushSync(() => setOpen(true));
    root.current?.querySelector<HTMLButtonElement>('.sort-option')?.focus();
  }

  /** Closing from inside the list hands focus back to the button (the list's buttons go with it). */
  function close() {
    const inside = root.current?.contains(document.activeElement) ?? false;
    flushSync(() => setOpen(false));
    if (inside) button.current?.focus();
  }

  function choose(key: SortKey) {
    close();
    onSort(key);
  }

  return (
    // Escape from the toggle or any order closes the list (one listener for all of them).
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div
      className="sort-menu"
      ref={root}
      onKeyDown={(e) => e.key === 'Escape' && open && (e.stopPropagation(), close())}
    >
      <button
        type="button"
        ref={button}
        className="button small"
        aria-expanded={open}
        aria-controls={id}
        disabled={disabled}
        onClick={toggle}
      >
        {label} ▾
      </button>
      {open && (
        <div className="sort-options" id={id} role="group" aria-label={label}>
          {KEYS.map((key) => (
            <button type="button" key={key} className="sort-option" onClick={() => choose(key)}>
              {SORT_LABELS[key]}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
