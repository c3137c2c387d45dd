import { useCallback, useMemo, useState } from 'react';

/**
 * Multi-select as in a file manager: a click selects one row, Shift-click the range from the last
 * clicked row, Ctrl/Cmd-click (or the row's checkbox) toggles one, Ctrl/Cmd-A all, Escape none.
 * Titles that left the queue leave the selection.
 */
export interface Selection {
  selected: ReadonlySet<string>;
  click(ref: string, how: { range: boolean; toggle: boolean }): void;
  toggle(ref: string): void;
  selectAll: () => void;
  clear: () => void;
}

export function useSelection(order: readonly string[]): Selection {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState<string | null>(null);

  const selected = useMemo(() => {
    const present = new Set(order);
    const kept = [...chosen].filter((ref) => present.has(ref));
    return kept.length === chosen.size ? chosen : new Set(kept);
  }, [chosen, order]);

  const toggle = useCallback((ref: string) => {
    setChosen((now) => {
      const next = new Set(now);
      if (next.has(ref)) next.delete(ref);
      else next.add(ref);
      return next;
    });
    setAnchor(ref);
  }, []);

  const click = useCallback(
    (ref: string, how: { range: boolean; toggle: boolean }) => {
      if (how.range && anchor !== null) {
        const from = order.indexOf(anchor);
        const to = order.indexOf(ref);
        if (from >= 0 && to >= 0) {
          const [lo, hi] = from < to ? [from, to] : [to, from];
          setChosen((now) => new Set([...(how.toggle ? now : []), ...order.slice(lo, hi + 1)]));
          return;
        }
      }
      if (how.toggle) return toggle(ref);
      setChosen(new Set([ref]));
      setAnchor(ref);
    },
    [anchor, order, toggle],
  );

  const selectAll = useCallback(() => setChosen(new Set(order)), [order]);
  const clear = useCallback(() => {
    setChosen(new Set());
    setAnchor(null);
  }, []);

  return { selected, click, toggle, selectAll, clear };
}
