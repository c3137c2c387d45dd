import { z } from 'zod';
import type { ServiceProfile } from '../../../shared/models.ts';
import { preferencesSchema } from '../../../shared/preferences.ts';
import { DEFAULT_PREFERENCES, type EncryptedBlob, type UiPreferences } from './types.ts';
import { defaultStoredAlerts, loadStoredAlerts, type StoredAlerts } from './alerts-document.ts';

/**
 * The settings document as it is kept on disk: its shape, the text of a file read without ever
 * throwing, and the salvage of what is valid in it (store.ts keeps it in memory).
 */

export const profileSchema = z.object({
  id: z.string().min(1).max(64),
  label: z.string().min(1).max(100),
  baseUrl: z
    .string()
    .url()
    .max(2048)
    .refine((u) => /^https?:\/\//i.test(u), 'must be http(s)'),
  consumerKey: z.string().min(1).max(200),
  consumerSecret: z.string().min(1).max(200),
});

export { preferencesSchema };

const blobSchema = z.object({ scheme: z.string().min(1), data: z.string().min(1) });

export interface SettingsDocument {
  version: 1;
  profiles: ServiceProfile[];
  activeProfileId: string | null;
  preferences: UiPreferences;
  tokens: Record<string, EncryptedBlob>;
  /** Availability alerts: their settings, and what each account was told (alerts-document.ts). */
  alerts: StoredAlerts;
  /** Each profile's older base URLs, newest first: ids kept from them are mapped, never dropped. */
  formerBaseUrls: Record<string, string[]>;
}

/** How many older addresses of one profile are remembered. */
export const MAX_FORMER_BASE_URLS = 20;

export const tokensPlainSchema = z.object({
  profileId: z.string(),
  token: z.string().min(1),
  secret: z.string().min(1),
  userId: z.string(),
});

/**
 * A JSON `deserialize` for conf/electron-store that never throws: a file that is not JSON reads as
 * empty, and its text is kept so openSettings can back it up and warn (instead of conf throwing
 * from its constructor, or silently clearing with clearInvalidConfig).
 */
export function tolerantDeserialize(): {
  deserialize: (text: string) => Record<string, unknown>;
  corruptText: () => string | null;
} {
  let corrupt: string | null = null;
  return {
    deserialize: (text: string) => {
      try {
        const value: unknown = JSON.parse(text);
        if (value !== null && typeof value === 'object' && !Array.isArray(value))
          return value as Record<string, unknown>;
      } catch {
        // fall through
      }
      corrupt = text;
      return {};
    },
    corruptText: () => corrupt,
  };
}

/**
 * The options both hosts give conf/electron-store: an owner-only file that is never cleared, keys
 * taken literally, read tolerantly; `corruptText` is what a file that was not JSON held.
 */
export function backingOptions(): {
  options: {
    configFileMode: number;
    clearInvalidConfig: false;
    accessPropertiesByDotNotation: false;
    deserialize: (text: string) => Record<string, unknown>;
  };
  corruptText: () => string | null;
} {
  const tolerant = tolerantDeserialize();
  const options = {
    configFileMode: 0o600,
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
    deserialize: tolerant.deserialize,
  } as const;
  return { options, corruptText: tolerant.corruptText };
}

/** Salvages what it can of a stored document; `problems` lists what had to be dropped. */
export function loadDocument(raw: Record<string, unknown>): { doc: SettingsDocument; problems: string[] } {
  const problems: string[] = [];
  const isEmpty = Object.keys(raw).filter((k) => k !== '__internal__').length === 0;
  const doc: SettingsDocument = {
    version: 1,
    profiles: [],
    activeProfileId: null,
    preferences: { ...DEFAULT_PREFERENCES },
    tokens: {},
    alerts: defaultStoredAlerts(),
    formerBaseUrls: {},
  };
  if (isEmpty) return { doc, problems };
  if (raw.version !== undefined && raw.version !== 1) problems.push(`unknown version ${JSON.stringify(raw.version)}`);

  if (Array.isArray(raw.profiles)) {
    for (const entry of raw.profiles) {
      const p = profileSchema.safeParse(entry);
      if (p.success && !doc.profiles.some((x) => x.id === p.data.id)) doc.profiles.push(p.data);
      else problems.push('a profile');
    }
  } else if (raw.profiles !== undefined) problems.push('profiles');

  if (typeof raw.activeProfileId === 'string' && doc.profiles.some((p) => p.id === raw.activeProfileId))
    doc.activeProfileId = raw.activeProfileId;
  else if (raw.activeProfileId !== undefined && raw.activeProfileId !== null) problems.push('the active profile');
  if (doc.activeProfileId === null && doc.profiles.length > 0) doc.activeProfileId = doc.profiles[0]!.id;

  if (raw.preferences !== undefined) {
    const prefs =
      raw.preferences !== null && typeof raw.preferences === 'object'
        ? (raw.preferences as Record<string, unknown>)
        : null;
    if (!prefs) problems.push('preferences');
    else {
      for (const key of Object.keys(DEFAULT_PREFERENCES) as Array<keyof UiPreferences>) {
        if (prefs[key] === undefined) continue;
        const ok = preferencesSchema.shape[key].safeParse(prefs[key]);
        if (ok.success) (doc.preferences as unknown as Record<string, unknown>)[key] = ok.data;
        else problems.push(`preference ${key}`);
      }
    }
  }

  if (raw.tokens !== undefined) {
    if (raw.tokens === null || typeof raw.tokens !== 'object' || Array.isArray(raw.tokens)) problems.push('tokens');
    else {
      for (const [id, value] of Object.entries(raw.tokens as Record<string, unknown>)) {
        const blob = blobSchema.safeParse(value);
        if (blob.success && doc.profiles.some((p) => p.id === id)) doc.tokens[id] = blob.data;
        else problems.push(`the tokens of ${JSON.stringify(id)}`);
      }
    }
  }
  const former = loadFormerBaseUrls(raw.formerBaseUrls, doc.profiles);
  doc.formerBaseUrls = former.value;
  if (former.problem) problems.push(former.problem);
  const alerts = loadStoredAlerts(raw.alerts);
  doc.alerts = alerts.value;
  if (alerts.problem) problems.push(alerts.problem);
  return { doc, problems };
}

const formerSchema = z.record(z.string(), z.array(profileSchema.shape.baseUrl).max(MAX_FORMER_BASE_URLS));

/** The older addresses of profiles that still exist. */
function loadFormerBaseUrls(
  raw: unknown,
  profiles: ServiceProfile[],
): { value: Record<string, string[]>; problem?: string } {
  if (raw === undefined) return { value: {} };
  const parsed = formerSchema.safeParse(raw);
  if (!parsed.success) return { value: {}, problem: 'former base URLs' };
  const value = Object.fromEntries(Object.entries(parsed.data).filter(([id]) => profiles.some((p) => p.id === id)));
  return { value };
}
