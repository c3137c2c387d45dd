import { DEFAULT_ALERT_SETTINGS } from '../../../shared/alerts.ts';
import { migrateAddressedAlerts, version1Schema } from './alerts-migration.ts';
import { storedSchema, type AccountAlerts, type StoredAlerts } from './alerts-schema.ts';

/**
 * The availability alerts' part of the settings document: the person's alert settings, and per
 * account what the watcher last saw of each watched title, the events already told (never again)
 * and the alerts kept for the Alerts screen. Titles are kept by path (shared/alerts.ts titlePath),
 * never by the service's address, which may change between launches.
 */
export type { AccountAlerts, Observation, StoredAlert, StoredAlerts } from './alerts-schema.ts';

export const EMPTY_ACCOUNT_ALERTS: Readonly<AccountAlerts> = Object.freeze({ observed: {}, seen: [], alerts: [] });

export function defaultStoredAlerts(): StoredAlerts {
  return { version: 2, settings: { ...DEFAULT_ALERT_SETTINGS }, accounts: {} };
}

/**
 * The stored alerts, or the defaults (and a problem named) when what is kept does not read. A
 * version 1 document (titles by ref, with an address) is migrated on load (alerts-migration.ts).
 */
export function loadStoredAlerts(raw: unknown): { value: StoredAlerts; problem: string | null } {
  if (raw === undefined) return { value: defaultStoredAlerts(), problem: null };
  const parsed = storedSchema.safeParse(raw);
  if (parsed.success) return { value: parsed.data, problem: null };
  const old = version1Schema.safeParse(raw);
  if (old.success) return { value: migrateAddressedAlerts(old.data), problem: null };
  return { value: defaultStoredAlerts(), problem: 'the availability alerts' };
}
