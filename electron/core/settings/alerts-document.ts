import { z } from 'zod';
import { alertSettingsSchema, DEFAULT_ALERT_SETTINGS, type Alert, type AlertSettings } from '../../../shared/alerts.ts';

/**
 * The availability alerts' part of the settings document: the person's alert settings, and per
 * account what the watcher last saw of each watched title, the events already told (never again)
 * and the alerts kept for the Alerts screen.
 */

/** What the watcher last saw of a title in a queue and format. */
export interface Observation {
  state: 'waiting' | 'available' | 'gone';
  until: number | null;
}

export interface AccountAlerts {
  /** By watch key (queue, format, ref). */
  observed: Record<string, Observation>;
  /** Ids of every event told, newest last (bounded). */
  seen: string[];
  alerts: Alert[];
}

export interface StoredAlerts {
  settings: AlertSettings;
  accounts: Record<string, AccountAlerts>;
}

export const EMPTY_ACCOUNT_ALERTS: Readonly<AccountAlerts> = Object.freeze({ observed: {}, seen: [], alerts: [] });

const observationSchema = z.object({ state: z.enum(['waiting', 'available', 'gone']), until: z.number().nullable() });
const alertSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['available', 'leaving', 'gone']),
  ref: z.string().min(1),
  title: z.string(),
  queue: z.enum(['instant', 'disc']),
  format: z.string(),
  at: z.number(),
  until: z.number().nullable(),
  read: z.boolean(),
});
const accountSchema = z.object({
  observed: z.record(z.string(), observationSchema),
  seen: z.array(z.string()),
  alerts: z.array(alertSchema),
});
const storedSchema = z.object({ settings: alertSettingsSchema, accounts: z.record(z.string(), accountSchema) });

export function defaultStoredAlerts(): StoredAlerts {
  return { settings: { ...DEFAULT_ALERT_SETTINGS }, accounts: {} };
}

/** The stored alerts, or the defaults (and a problem named) when what is kept does not read. */
export function loadStoredAlerts(raw: unknown): { value: StoredAlerts; problem: string | null } {
  if (raw === undefined) return { value: defaultStoredAlerts(), problem: null };
  const parsed = storedSchema.safeParse(raw);
  return parsed.success
    ? { value: parsed.data, problem: null }
    : { value: defaultStoredAlerts(), problem: 'the availability alerts' };
}
