import { z } from 'zod';
import { alertSettingsSchema, type Alert, type AlertSettings } from '../../../shared/alerts.ts';

/** The shape of the alerts' part of the settings document (alerts-document.ts), read by zod. */

/** What the watcher last saw of a title in a queue and format. */
export interface Observation {
  state: 'waiting' | 'available' | 'gone';
  until: number | null;
}

/** An alert as kept: its title by path; `alerts.list` answers it with the ref at the current address. */
export type StoredAlert = Omit<Alert, 'ref'> & { path: string };

export interface AccountAlerts {
  /** By watch key (queue, format, path). */
  observed: Record<string, Observation>;
  /** Ids of every event told, newest last (bounded). */
  seen: string[];
  alerts: StoredAlert[];
}

export interface StoredAlerts {
  /** 2: titles by path. 1 (no version): by ref, carrying the address of the launch that saw them. */
  version: 2;
  settings: AlertSettings;
  accounts: Record<string, AccountAlerts>;
}

export const observationSchema = z.object({
  state: z.enum(['waiting', 'available', 'gone']),
  until: z.number().nullable(),
});

/** An alert's fields but its title's (a ref in version 1, a path in 2). */
export const alertFieldsSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['available', 'leaving', 'gone']),
  title: z.string(),
  queue: z.enum(['instant', 'disc']),
  format: z.string(),
  at: z.number(),
  until: z.number().nullable(),
  read: z.boolean(),
});

/** Each account's alerts document, whatever names an alert's title (`path` now, `ref` in version 1). */
export function accountsSchema<Alert extends z.ZodType>(alert: Alert) {
  return z.record(
    z.string(),
    z.object({ observed: z.record(z.string(), observationSchema), seen: z.array(z.string()), alerts: z.array(alert) }),
  );
}

export const storedSchema = z.object({
  version: z.literal(2),
  settings: alertSettingsSchema,
  accounts: accountsSchema(alertFieldsSchema.extend({ path: z.string().min(1) })),
});
