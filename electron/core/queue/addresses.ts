import { mapRefToBase } from '../../../shared/protocol/base-url.ts';
import type { OutboxEntry, QueueIntent, QueueOutbox } from './outbox.ts';

/**
 * A title's id is its URL, so an edit kept while the service moved (the embedded service on
 * another port) names it at the old address. Before anything is sent, each entry's refs are
 * mapped from its profile's older base URLs to the current one, never dropped.
 */

/** A profile's address now and the ones it had, by the account (`${profileId}:${userId}`) of an entry. */
export type AddressOf = (account: string) => { current: string; former: readonly string[] } | null;

/** Rewrites the outbox's entries onto their profiles' current addresses; resolves once saved. */
export function mapOutboxAddresses(outbox: QueueOutbox, addressOf: AddressOf): Promise<void> {
  return outbox.mapEntries((entry) => onCurrentAddress(entry, addressOf));
}

function onCurrentAddress(entry: OutboxEntry, addressOf: AddressOf): OutboxEntry {
  const address = addressOf(entry.account);
  if (!address) return entry;
  const former = entry.baseUrl ? [entry.baseUrl, ...address.former] : address.former;
  const map = (ref: string) => mapRefToBase(ref, former, address.current);
  return { ...entry, intent: mapIntent(entry.intent, map), baseUrl: address.current };
}

function mapIntent(intent: QueueIntent, map: (ref: string) => string): QueueIntent {
  if (intent.op !== 'replace') return { ...intent, ref: map(intent.ref) };
  return {
    ...intent,
    refs: intent.refs.map(map),
    ...(intent.base ? { base: intent.base.map(map) } : {}),
  };
}
