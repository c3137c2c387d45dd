// @vitest-environment happy-dom
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, test, vi } from 'vitest';
import type { EventName, Events } from '../../shared/ipc.ts';
import { accountKeys } from '../../renderer/queries/account.ts';
import { catalogKeys } from '../../renderer/queries/catalog.ts';
import { connectEvents } from '../../renderer/queries/events.ts';
import { queueKeys } from '../../renderer/queries/queue.ts';
import { titleKeys } from '../../renderer/queries/title.ts';

// The queries' modules reach the bridge when called; these tests only emit events into the cache.
vi.mock('../../renderer/api.ts', () => ({ inWebHost: true, api: {} }));

/** A stand-in for window.marquee's event subscription: the test emits what the core would. */
function fakeEvents() {
  const listeners = new Map<EventName, (payload: unknown) => void>();
  return {
    api: {
      on: <E extends EventName>(event: E, listener: (payload: Events[E]) => void) => {
        listeners.set(event, listener as (payload: unknown) => void);
        return () => listeners.delete(event);
      },
    },
    emit: <E extends EventName>(event: E, payload: Events[E]) => listeners.get(event)?.(payload),
  };
}

/** The cache's queries that are marked stale (to be asked again) after `what` changed elsewhere. */
function staleAfter(what: Events['live.changed']['what']): string[] {
  const client = new QueryClient();
  const keys = [
    queueKeys.all,
    titleKeys.state('t1'),
    accountKeys.ratings(),
    accountKeys.history('all'),
    catalogKeys.title('t1'),
  ];
  for (const key of keys) client.setQueryData(key, { held: true });
  const events = fakeEvents();
  const off = connectEvents(events.api, client);
  events.emit('live.changed', { what });
  off();
  return keys.filter((key) => client.getQueryState(key)?.isInvalidated).map((key) => key.join('/'));
}

/** Issue 26: what another device changed is asked for again, and nothing else. */
describe("live.changed from the core's change stream", () => {
  test('a rating elsewhere: title panels and the ratings list', () => {
    expect(staleAfter('ratings')).toEqual(['title/state/t1', 'account/ratings']);
  });
  test('a title state elsewhere: title panels only', () => {
    expect(staleAfter('title_states')).toEqual(['title/state/t1']);
  });
  test('a catalog change: what a subscriber sees of availability (queues, title states)', () => {
    expect(staleAfter('catalog')).toEqual(['queue', 'title/state/t1']);
  });
  test('a reset: everything but the queues, which the core reads again itself', () => {
    expect(staleAfter('all')).toEqual(['title/state/t1', 'account/ratings', 'account/history/all', 'catalog/title/t1']);
  });
});
