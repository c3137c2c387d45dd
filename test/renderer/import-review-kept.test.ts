// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { createEventHub, deriveApi, type OperationName } from '../../shared/ipc.ts';

const candidate = (ref: string, year: number) => ({
  ref,
  type: 'movie',
  title: 'Sabrina',
  shortTitle: 'Sabrina',
  year,
  runtimeSeconds: null,
  averageRating: null,
  boxArt: { small: '', medium: '', large: '' },
  genres: [],
  maturity: null,
  formats: ['instant'],
  placement: { instant: 'now', disc: 'now' },
});
const answers: Partial<Record<OperationName, (input: never) => unknown>> = {
  'auth.status': () => ({
    signedIn: true,
    profileId: 'p',
    user: { id: 'u', name: 'U' },
    pending: null,
    secureStorage: true,
  }),
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

afterEach(cleanup);

test('a choice made in the review shows at once, and is there after leaving the screen and coming back', async () => {
  const { ImportScreen } = await import('../../renderer/screens/import/ImportScreen.tsx');
  const { importKeys } = await import('../../renderer/queries/import.ts');
  const { NavigationProvider } = await import('../../renderer/components/frame/NavigationProvider.tsx');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const { authKeys } = await import('../../renderer/queries/auth.ts');
  client.setQueryData(authKeys.status(), answers['auth.status']!(undefined as never));
  client.setQueryData(importKeys.handedFile(), { name: 'films.txt', text: 'Sabrina\n' });
  const screenOf = () =>
    createElement(
      QueryClientProvider,
      { client },
      createElement(NavigationProvider, null, createElement(ImportScreen, { kind: 'instant' })),
    );
  const view = render(screenOf());
  const radio = (await screen.findAllByRole('radio', {}, { timeout: 5_000 }))[1]! as HTMLInputElement;
  fireEvent.click(radio);
  expect(radio.checked).toBe(true);
  view.unmount();
  render(screenOf());
  const again = (await screen.findAllByRole('radio'))[1]! as HTMLInputElement;
  expect(again.checked).toBe(true);
});
