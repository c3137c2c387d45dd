// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { queueKeys } from '../../renderer/queries/queue.ts';
import {
  clearPendingMarks,
  markPending,
  marksAfter,
  shownMarks,
  usePendingMarks,
} from '../../renderer/queries/queue-pending.ts';
import { useKeyboardLift } from '../../renderer/screens/queue/useKeyboardLift.ts';
import { useSelection } from '../../renderer/screens/queue/useSelection.ts';
import { queueOf } from './fixtures.ts';

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

describe('useSelection', () => {
  const order = ['a', 'b', 'c', 'd', 'e'];

  test('a click selects one row, Shift-click the range from it, Ctrl-click toggles one', () => {
    const { result } = renderHook(() => useSelection(order));
    act(() => result.current.click('b', { range: false, toggle: false }));
    expect([...result.current.selected]).toEqual(['b']);
    act(() => result.current.click('d', { range: true, toggle: false }));
    expect([...result.current.selected]).toEqual(['b', 'c', 'd']);
    act(() => result.current.click('c', { range: false, toggle: true }));
    expect([...result.current.selected].sort()).toEqual(['b', 'd']);
  });

  test('select all, clear, and titles that left the queue leave the selection', () => {
    const { result, rerender } = renderHook(({ refs }) => useSelection(refs), { initialProps: { refs: order } });
    act(() => result.current.selectAll());
    expect(result.current.selected.size).toBe(5);
    rerender({ refs: ['a', 'c'] });
    expect([...result.current.selected]).toEqual(['a', 'c']);
    act(() => result.current.clear());
    expect(result.current.selected.size).toBe(0);
  });
});

describe('useKeyboardLift', () => {
  /** A row's "Reorder" handle as the list renders it, focused. */
  function handleOf(ref: string): HTMLButtonElement {
    const row = document.createElement('div');
    row.dataset.ref = ref;
    const handle = document.createElement('button');
    handle.className = 'queue-handle';
    row.append(handle);
    document.body.append(row);
    return handle;
  }
  const press = (target: EventTarget, key: string) =>
    act(() => void target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true })));

  function lifting(order: string[]) {
    const onDrop = vi.fn();
    const source = { order: () => order, titleOf: (ref: string) => `Title ${ref}`, onDrop };
    const hook = renderHook(({ items }) => useKeyboardLift(source, items), {
      initialProps: { items: order },
    });
    return { ...hook, onDrop };
  }

  test('Space picks a title up, each arrow key moves it one place, Space drops it at its new 1-based position', () => {
    const { result, onDrop } = lifting(['a', 'b', 'c', 'd']);
    const handle = handleOf('b');
    press(handle, ' ');
    expect(result.current.lifted).toEqual({ ref: 'b', from: 1, to: 1 });
    expect(result.current.announcement).toBe('Picked up “Title b”, position 2 of 4.');
    press(handle, 'ArrowDown');
    press(handle, 'ArrowDown');
    press(handle, 'ArrowDown'); // past the end: stays on the last place
    expect(result.current.lifted?.to).toBe(3);
    press(handle, ' ');
    expect(onDrop).toHaveBeenCalledWith('b', 4);
    expect(result.current.lifted).toMatchObject({ ref: 'b', to: 3, dropped: true });
  });

  test('Escape cancels without a drop; Home and End reach the ends', () => {
    const { result, onDrop } = lifting(['a', 'b', 'c']);
    const handle = handleOf('b');
    press(handle, 'Enter');
    press(handle, 'End');
    expect(result.current.lifted?.to).toBe(2);
    press(handle, 'Home');
    expect(result.current.lifted?.to).toBe(0);
    press(handle, 'Escape');
    expect(result.current.lifted).toBeNull();
    expect(result.current.announcement).toMatch(/^Cancelled\./);
    expect(onDrop).not.toHaveBeenCalled();
  });

  test('a dropped title stops being drawn lifted once the list changes', () => {
    const { result, rerender } = lifting(['a', 'b']);
    const handle = handleOf('a');
    press(handle, ' ');
    press(handle, 'ArrowDown');
    press(handle, ' ');
    expect(result.current.lifted?.dropped).toBe(true);
    rerender({ items: ['b', 'a'] });
    expect(result.current.lifted).toBeNull();
  });
});

describe('pending marks (queries/queue-pending.ts)', () => {
  test('an answer with edits waiting adds the titles; one with none clears them', () => {
    const some = marksAfter(new Set(['a']), { pendingEdits: 2 }, ['b']);
    expect([...some]).toEqual(['a', 'b']);
    expect(marksAfter(some, { pendingEdits: 0 }, ['c']).size).toBe(0);
  });

  test('marks show only while the queue says edits wait', () => {
    const marks = new Set(['a']);
    expect(shownMarks({ pendingEdits: 1 }, marks)).toBe(marks);
    expect(shownMarks({ pendingEdits: 0 }, marks).size).toBe(0);
    expect(shownMarks(undefined, marks).size).toBe(0);
  });

  test('usePendingMarks reads them from the query cache, and the core reporting none waiting clears them', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    client.setQueryData(queueKeys.list('instant'), queueOf(['a', 'b'], [], 1));
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
    const { result } = renderHook(() => usePendingMarks('instant'), { wrapper });
    expect(result.current.size).toBe(0);
    act(() => markPending(client, 'instant', queueOf(['a', 'b'], [], 1), ['b']));
    // The cache tells its observers on a later tick.
    await waitFor(() => expect([...result.current]).toEqual(['b']));
    act(() => clearPendingMarks(client, 'instant'));
    await waitFor(() => expect(result.current.size).toBe(0));
    client.clear();
  });
});
