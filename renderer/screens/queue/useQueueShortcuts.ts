import { useCallback, useEffect, useEffectEvent, useRef } from 'react';

export interface QueueShortcuts {
  selectAll(): void;
  clearSelection(): void;
  undo(): void;
  redo(): void;
}

/** Typing in a field keeps its own Ctrl-A, Ctrl-Z and Escape. */
function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return (
    !!el &&
    ((el.tagName === 'INPUT' && (el as HTMLInputElement).type !== 'checkbox') ||
      el.tagName === 'TEXTAREA' ||
      el.isContentEditable)
  );
}

/**
 * The queue's keyboard: Ctrl/Cmd-A selects every title, Escape clears the selection, Ctrl/Cmd-Z
 * undoes and Shift+Ctrl/Cmd-Z (or Ctrl-Y) redoes. Listens on the document while the screen is shown;
 * a pointer drag in progress keeps Escape for dnd-kit, which cancels the drag with it. Returns what
 * the list calls when a drag starts or ends (SortableQueueList tells, from dnd-kit's drag events).
 */
export function useQueueShortcuts(actions: QueueShortcuts): (dragging: boolean) => void {
  // A ref, read at each key: a drag starting re-renders nothing.
  const dragging = useRef(false);
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || isTyping(event.target)) return;
    const mod = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    if (mod && key === 'a') {
      event.preventDefault();
      actions.selectAll();
    } else if (mod && (key === 'z' || key === 'y')) {
      event.preventDefault();
      if (event.shiftKey || key === 'y') actions.redo();
      else actions.undo();
    } else if (key === 'escape' && !dragging.current) {
      actions.clearSelection();
    }
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);
  return useCallback((now: boolean) => {
    dragging.current = now;
  }, []);
}
