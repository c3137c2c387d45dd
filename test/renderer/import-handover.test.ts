// @vitest-environment happy-dom
import { QueryClient } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createElement, StrictMode } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { createEventHub, deriveApi, type OperationName } from '../../shared/ipc.ts';
import { importScreenOf } from './import-screen.ts';

/**
 * A file handed to the Import screen (dropped on the window, opened from the desktop menu) is read
 * and matched once. The core runs one import at a time, so a second match of the same file stops
 * the first: the screen then said "You stopped the matching" to a person who had stopped nothing.
 * The core here answers at the renderer's one way out (`api`), as the web host or preload would.
 */
const calls: OperationName[] = [];
const answers: Partial<Record<OperationName, (input: never) => unknown>> = {
  'import.read': () => ({
    source: 'plain',
    label: 'Plain text list',
    entries: [{ line: 1, title: 'Casablanca', year: 1942, type: null, ref: null, rating: null, listed: true }],
    skipped: [],
    kind: null,
    hasRatings: false,
    isList: true,
  }),
  'import.match': () => {
    // A later match stops this one, as the core's one-run-at-a-time rule does.
    const mine = calls.filter((c) => c === 'import.match').length;
    return new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
      calls.filter((c) => c === 'import.match').length === mine
        ? { ok: true, value: [{ status: 'missing', ref: null, candidates: [], reason: 'Nothing close' }] }
        : { ok: false, error: { kind: 'invalid', message: 'You stopped the matching: nothing was imported.' } },
    );
  },
};
vi.mock('../../renderer/api.ts', () => ({
  inWebHost: true,
  api: deriveApi(async (name, input) => {
    calls.push(name);
    const answer = await answers[name]?.(input as never);
    if (answer && typeof answer === 'object' && 'ok' in answer) return answer as never;
    return { ok: true, value: answer ?? null };
  }, createEventHub().subscribe),
}));
// The suite reuses a worker's module cache from file to file (isolate: false): without this, the
// renderer's modules a file imports below could be those another file loaded against its own api.
vi.resetModules();

afterEach(() => {
  cleanup();
  calls.length = 0;
});

test('a handed file is matched once, and the review shows (no "You stopped the matching")', async () => {
  const { importKeys } = await import('../../renderer/queries/import.ts');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(importKeys.handedFile(), { name: 'films.txt', text: 'Casablanca (1942)\n' });
  // In StrictMode, as main.tsx renders the app: a development build runs each effect twice on mount.
  render(createElement(StrictMode, null, (await importScreenOf(client))()));
  await screen.findByRole('button', { name: /^Import/ }, { timeout: 5_000 });
  expect(calls.filter((c) => c === 'import.match')).toHaveLength(1);
  expect(screen.queryByText(/You stopped the matching/)).toBeNull();
  expect(client.getQueryData(importKeys.handedFile())).toBeNull();
});
