import { describe, expect, it } from 'vitest';
import { loadStoredAlerts } from '../../electron/core/settings/alerts-document.ts';
import { titlePath } from '../../shared/alerts.ts';

/** The alerts document of version 1 (titles by ref, with the address of the launch) read by today's app. */
const settings = { intervalMinutes: 15, leavingDays: 7, notifications: true };
const alert = (port: number, read: boolean, at: number) => ({
  id: `gone instant instant http://127.0.0.1:${port}/catalog/titles/movies/7`,
  kind: 'gone',
  ref: `http://127.0.0.1:${port}/catalog/titles/movies/7`,
  title: 'Alien',
  queue: 'instant',
  format: 'instant',
  at,
  until: null,
  read,
});
const version1 = {
  settings,
  accounts: {
    'embedded:u1': {
      observed: { 'instant instant http://127.0.0.1:41000/catalog/titles/movies/7': { state: 'gone', until: null } },
      seen: [alert(41000, true, 1).id, alert(42000, false, 2).id],
      alerts: [alert(41000, true, 1), alert(42000, false, 2)],
    },
  },
};

describe('the alerts document', () => {
  it('migrates version 1: refs, keys and ids by path; one event told under two addresses is one, read', () => {
    const { value, problem } = loadStoredAlerts(version1);
    expect(problem).toBeNull();
    expect(value).toEqual({
      version: 2,
      settings,
      accounts: {
        'embedded:u1': {
          observed: { 'instant instant /catalog/titles/movies/7': { state: 'gone', until: null } },
          seen: ['gone instant instant /catalog/titles/movies/7'],
          alerts: [
            {
              id: 'gone instant instant /catalog/titles/movies/7',
              kind: 'gone',
              path: '/catalog/titles/movies/7',
              title: 'Alien',
              queue: 'instant',
              format: 'instant',
              at: 1,
              until: null,
              read: true,
            },
          ],
        },
      },
    });
    expect(loadStoredAlerts(value)).toEqual({ value, problem: null });
  });

  it('a document that reads as neither version is named as a problem and replaced by the defaults', () => {
    const { value, problem } = loadStoredAlerts({ settings, accounts: { a: { alerts: 'no' } } });
    expect(problem).toBe('the availability alerts');
    expect(value.accounts).toEqual({});
  });

  it("titlePath keeps a ref's path and query, and leaves a path as it is", () => {
    expect(titlePath('http://127.0.0.1:5/catalog/titles/movies/7?x=1')).toBe('/catalog/titles/movies/7?x=1');
    expect(titlePath('/catalog/titles/movies/7')).toBe('/catalog/titles/movies/7');
  });
});
