// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createEventHub, deriveApi } from '../../shared/ipc.ts';
import type { AuthStatus, Queue, Result } from '../../shared/models.ts';
import { DEFAULT_PREFERENCES, type Preferences } from '../../shared/preferences.ts';
import { queueOf } from './fixtures.ts';

/**
 * What the renderer keeps for a person: the preferences (the core's, shown at once when changed,
 * taken back when the core refuses), and what belongs to one account (undo history, cached
 * answers), which another account never sees. The core answers at the renderer's one way out
 * (`api`), as the web host or preload would.
 */
const core = {
  kept: { ...DEFAULT_PREFERENCES },
  /** The answer to the next preferences.set: undefined keeps the change, else this refusal. */
  refuse: undefined as string | undefined,
  /** Resolves a held preferences.set (so a test sees the screen before the core answers). */
  release: null as (() => void) | null,
  /** The core's answer to queue.move, once released (`releaseMove`). */
  moved: null as Queue | null,
  releaseMove: null as (() => void) | null,
};
vi.mock('../../renderer/api.ts', () => ({
  inWebHost: true,
  api: deriveApi(async (name, input): Promise<Result<unknown>> => {
    if (name === 'preferences.get') return { ok: true, value: { ...core.kept } };
    if (name === 'preferences.set') {
      await new Promise<void>((resolve) => (core.release = resolve));
      if (core.refuse) return { ok: false, error: { kind: 'invalid', message: core.refuse } };
      core.kept = { ...core.kept, ...(input as Partial<Preferences>) };
      return { ok: true, value: { ...core.kept } };
    }
    if (name === 'queue.move') {
      await new Promise<void>((resolve) => (core.releaseMove = resolve));
      return { ok: true, value: core.moved };
    }
    return { ok: false, error: { kind: 'server', message: `not in this test: ${name}` } };
  }, createEventHub().subscribe),
}));
// The suite reuses a worker's module cache from file to file (isolate: false): without this, the
// renderer's modules a file imports below could be those another file loaded against its own api.
vi.resetModules();

const { usePreferences, useSetPreferences, loadPreferencesBeforeRender } = await import(
  '../../renderer/queries/preferences.ts'
);
const { QueueHistoryProvider, useQueueHistory, useQueueHistoryOwner } = await import(
  '../../renderer/queries/queue-history.ts'
);
const { applyAuthStatus, accountOf, authKeys } = await import('../../renderer/queries/auth.ts');
const { queueKeys } = await import('../../renderer/queries/queue.ts');
const { useQueueEditor } = await import('../../renderer/queries/queue-edits.ts');

afterEach(() => {
  cleanup();
  core.kept = { ...DEFAULT_PREFERENCES };
  core.refuse = undefined;
  core.release = null;
  core.moved = null;
  core.releaseMove = null;
  document.documentElement.removeAttribute('data-theme');
});

function withClient(client: QueryClient) {
  return ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
}

function preferencesHooks(client: QueryClient) {
  return renderHook(() => ({ shown: usePreferences(), change: useSetPreferences() }), { wrapper: withClient(client) });
}

describe('preferences', () => {
  test('read before the first render: the pinned theme is on <html> and in the cache', async () => {
    core.kept = { ...DEFAULT_PREFERENCES, theme: 'dark', pageSize: 96 };
    const client = new QueryClient();
    await loadPreferencesBeforeRender(client);
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(preferencesHooks(client).result.current.shown).toMatchObject({ theme: 'dark', pageSize: 96 });
  });

  test('a change shows at once, before the core answers, and the core keeps it', async () => {
    const client = new QueryClient();
    const { result } = preferencesHooks(client);
    await waitFor(() => expect(result.current.shown.theme).toBe('system'));
    act(() => result.current.change.set({ theme: 'dark' }));
    await waitFor(() => expect(result.current.shown.theme).toBe('dark'));
    expect(core.kept.theme).toBe('system'); // not answered yet
    await waitFor(() => expect(core.release).not.toBeNull());
    act(() => core.release!());
    await waitFor(() => expect(core.kept.theme).toBe('dark'));
    expect(result.current.shown.theme).toBe('dark');
    expect(result.current.change.error).toBeNull();
  });

  test('a change the core refuses is taken back, and the refusal is kept to be shown in words', async () => {
    core.refuse = 'Show at least 5 results per page.';
    const client = new QueryClient();
    const { result } = preferencesHooks(client);
    await waitFor(() => expect(result.current.shown.pageSize).toBe(24));
    act(() => result.current.change.set({ pageSize: 2 }));
    await waitFor(() => expect(result.current.shown.pageSize).toBe(2));
    await waitFor(() => expect(core.release).not.toBeNull());
    act(() => core.release!());
    await waitFor(() => expect(result.current.change.error?.message).toBe('Show at least 5 results per page.'));
    expect(result.current.shown.pageSize).toBe(24);
  });
});

describe('one account’s state', () => {
  const signedIn = (userId: string): AuthStatus => ({
    signedIn: true,
    profileId: 'embedded',
    account: `embedded:${userId}`,
    user: null,
    pending: null,
    secureStorage: false,
  });

  test('the undo history belongs to its provider: a new one (another account) starts empty', () => {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client }, createElement(QueueHistoryProvider, null, children));
    const first = renderHook(() => ({ owner: useQueueHistoryOwner(), state: useQueueHistory('instant') }), {
      wrapper,
    });
    const content = { order: ['a', 'b'], saved: [] };
    act(() => first.result.current.owner.record('instant', { label: 'Moved “b”', before: content, after: content }));
    expect(first.result.current.state.undo).toHaveLength(1);
    first.unmount(); // App keys the signed-in tree by account: another account's sign-in remounts it

    const second = renderHook(() => useQueueHistory('instant'), { wrapper });
    expect(second.result.current).toEqual({ undo: [], redo: [] });
  });

  test('another account drops the first one’s cached answers but keeps the preferences', () => {
    const client = new QueryClient();
    applyAuthStatus(client, signedIn('1'));
    client.setQueryData(queueKeys.list('instant'), queueOf(['a', 'b']));
    client.setQueryData(['preferences'], { ...DEFAULT_PREFERENCES, theme: 'dark' });
    applyAuthStatus(client, { ...signedIn('1'), user: { id: '1' } as AuthStatus['user'] }); // the same person, now named
    expect(client.getQueryData(queueKeys.list('instant'))).toBeDefined();

    applyAuthStatus(client, signedIn('2'));
    expect(client.getQueryData(queueKeys.list('instant'))).toBeUndefined();
    expect(client.getQueryData<Preferences>(['preferences'])?.theme).toBe('dark');
    expect(client.getQueryData<AuthStatus>(authKeys.status())?.account).toBe('embedded:2');
    expect(accountOf(signedIn('1'))).not.toBe(accountOf(signedIn('2')));
  });

  test('an edit answered after another account signed in leaves that account’s queue as it is', async () => {
    const client = new QueryClient();
    applyAuthStatus(client, signedIn('1'));
    client.setQueryData(queueKeys.list('instant'), queueOf(['a', 'b', 'c']));
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client }, createElement(QueueHistoryProvider, null, children));
    const { result } = renderHook(() => useQueueEditor('instant'), { wrapper });
    core.moved = queueOf(['c', 'a', 'b']);
    let answered: Promise<unknown> = Promise.resolve();
    act(() => void (answered = result.current.edit({ type: 'move', ref: 'c', position: 1, label: 'Moved “c”' })));
    await waitFor(() => expect(core.releaseMove).not.toBeNull());

    applyAuthStatus(client, signedIn('2'));
    const theirs = queueOf(['x', 'y']);
    client.setQueryData(queueKeys.list('instant'), theirs);
    act(() => core.releaseMove!());
    await act(() => answered);
    expect(client.getQueryData(queueKeys.list('instant'))).toEqual(theirs);
  });
});
