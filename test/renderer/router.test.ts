// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { lastSearchTerm, withLastSearch, type Location } from '../../renderer/router.ts';

const at = (screen: Location['screen']): Location => ({ screen, panel: null });

test('Search asked for without a term comes back to the latest search before the current place', () => {
  const entries = [
    at({ name: 'search', term: 'alien' }),
    at({ name: 'browse' }),
    at({ name: 'search', term: 'matrix' }),
    at({ name: 'ratings' }),
  ];
  expect(lastSearchTerm(entries, 3)).toBe('matrix');
  expect(lastSearchTerm(entries, 1)).toBe('alien');
  expect(withLastSearch({ name: 'search' }, entries, 3)).toEqual({ name: 'search', term: 'matrix' });
});

test('a search with its own term, another screen, or no search yet are left as asked', () => {
  const entries = [at({ name: 'search', term: 'alien' })];
  expect(withLastSearch({ name: 'search', term: 'heat' }, entries, 0)).toEqual({ name: 'search', term: 'heat' });
  expect(withLastSearch({ name: 'history' }, entries, 0)).toEqual({ name: 'history' });
  expect(withLastSearch({ name: 'search' }, [at({ name: 'browse' })], 0)).toEqual({ name: 'search' });
});
