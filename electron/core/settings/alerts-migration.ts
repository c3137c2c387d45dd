import { z } from 'zod';
import { alertSettingsSchema, titlePath } from '../../../shared/alerts.ts';
import {
  accountsSchema,
  alertFieldsSchema,
  type AccountAlerts,
  type StoredAlert,
  type StoredAlerts,
} from './alerts-schema.ts';

/**
 * Version 1 of the alerts document kept titles by ref, and a ref carries the service's address,
 * which changed at every launch of the embedded service: each launch told every event again and
 * the older alerts pointed at an address no longer served. Migrating maps every ref, watch key
 * and event id to its path, so what was told is told never again and nothing is dropped: copies
 * of one event told under several addresses become that one event (read if any copy was).
 */
export const version1Schema = z.object({
  settings: alertSettingsSchema,
  accounts: accountsSchema(alertFieldsSchema.extend({ ref: z.string().min(1) })),
});
type Version1 = z.infer<typeof version1Schema>;

/** Every absolute URL in a key or id as its path: "gone … http://h:1/catalog/…" → "gone … /catalog/…". */
export function withoutOrigins(text: string): string {
  return text.replace(/[a-z][a-z\d+.-]*:\/\/[^\s]+/gi, (url) => titlePath(url));
}

export function migrateAddressedAlerts(old: Version1): StoredAlerts {
  const accounts: Record<string, AccountAlerts> = {};
  for (const [key, account] of Object.entries(old.accounts)) {
    const observed = Object.fromEntries(Object.entries(account.observed).map(([k, o]) => [withoutOrigins(k), o]));
    const seen = [...new Set(account.seen.map(withoutOrigins))];
    accounts[key] = { observed, seen, alerts: mergedAlerts(account.alerts) };
  }
  return { version: 2, settings: old.settings, accounts };
}

/** Each event once, where it was first told (the list is kept newest last). */
function mergedAlerts(alerts: Version1['accounts'][string]['alerts']): StoredAlert[] {
  const byId = new Map<string, StoredAlert>();
  for (const { ref, ...alert } of alerts) {
    const id = withoutOrigins(alert.id);
    const first = byId.get(id);
    if (first) first.read ||= alert.read;
    else byId.set(id, { ...alert, id, path: titlePath(ref) });
  }
  return [...byId.values()];
}
