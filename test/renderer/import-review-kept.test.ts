// @vitest-environment happy-dom
import { QueryClient } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { createEventHub, deriveApi, type OperationName } from '../../shared/ipc.ts';
import { importScreenOf } from './import-screen.ts';
import type { AuthStatus } from '../../shared/models.ts';
import { importCandidate } from '../helpers/import-candidate.ts';

/**
 * The import's review belongs to the signed-in account and outlives the Import screen: a choice
 * made in it holds (within the click, and after leaving and coming back), and signing out drops it.
 * The core answers at the renderer's one way out (`api`), as the web host or preload would.
 */
const candidate = (ref: string, year: number) =>
  importCandidate({ ref, title: 'Sabrina', year, placement: { instant: 'now', disc: 'now' } });
const answers: Partial<Record<OperationName, (input: never) => unknown>> = {
  'import.read': () => ({
    source: 'text',
    label: 'Plain text list',
    entries: [{ line: 1, title: 'Sabrina', year: null, type: null, ref: null, rating: null, listed: true }],
    skipped: [],
    kind: null,
    hasRatings: false,
    isList: true,
  }),
  'import.match': () => [
    { status: 'choice', ref: null, candidates: [candidate('a', 1954), candidate('b', 1995)], reason: '2 titles' },
  ],
  'queue.list': () => ({ kind: 'instant', view: 'all', etag: '"1"', total: 0, items: [], pendingEdits: 0 }),
};
vi.mock('../../renderer/api.ts', () => ({
  inWebHost: true,
  api: deriveApi(
    async (name, input) => ({ ok: true, value: (await answers[name]?.(input as never)) ?? null }),
    createEventHub().subscribe,
  ),
}));
// The suite reuses a worker's module cache from file to file (isolate: false): without this, the
// renderer's modules a file imports below could be those another file loaded against its own api.
vi.resetModules();

afterEach(cleanup);

const signedIn = (user: string): AuthStatus => ({
  signedIn: true,
  profileId: 'p',
  user: { id: user, firstName: user, lastName: '', nickname: user, canInstantWatch: true, preferredFormats: [] },
  pending: null,
  secureStorage: true,
  account: `p:${user}`,
});

/** The Import screen on a cache signed in as `user`, with a file handed to it; its review's radios. */
async function reviewOpen(client: QueryClient, user = 'u') {
  const { importKeys } = await import('../../renderer/queries/import.ts');
  const { authKeys } = await import('../../renderer/queries/auth.ts');
  client.setQueryData(authKeys.status(), signedIn(user));
  client.setQueryData(importKeys.handedFile(), { name: 'films.txt', text: 'Sabrina\n' });
  const screenOf = await importScreenOf(client);
  const view = render(screenOf());
  const radios = await screen.findAllByRole<HTMLInputElement>('radio', {}, { timeout: 5_000 });
  return { view, radios, screenOf };
}

const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

test('a choice made in the review shows at once, and is there after leaving the screen and coming back', async () => {
  const client = newClient();
  const { view, radios, screenOf } = await reviewOpen(client);
  // Checked within the click: a controlled radio whose state came a tick later was put back unchecked.
  fireEvent.click(radios[1]!);
  expect(radios[1]!.checked).toBe(true);
  view.unmount();
  render(screenOf());
  const again = await screen.findAllByRole<HTMLInputElement>('radio');
  expect(again[1]!.checked).toBe(true);
});

test('the review is the account’s: signing out drops it, and the next account starts with a file to choose', async () => {
  const client = newClient();
  const { radios } = await reviewOpen(client, 'alice');
  fireEvent.click(radios[1]!);
  const { applyAuthStatus } = await import('../../renderer/queries/auth.ts');
  const { importKeys } = await import('../../renderer/queries/import.ts');
  act(() => applyAuthStatus(client, { ...signedIn('alice'), signedIn: false, user: null, account: null }));
  expect(client.getQueryData(importKeys.session('p:alice'))).toBeUndefined();
  act(() => applyAuthStatus(client, signedIn('bob')));
  await screen.findByText('Choose a file…');
  expect(screen.queryAllByRole('radio')).toEqual([]);
  expect(client.getQueryData(importKeys.session('p:alice'))).toBeUndefined();
});
