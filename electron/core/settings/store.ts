import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { ServiceProfile } from '../../../shared/models.ts';
import {
  CipherUnavailableError,
  EMBEDDED_PROFILE_ID,
  SettingsError,
  type JsonBacking,
  type SettingsStore,
  type StoredTokens,
  type TokenCipher,
} from './types.ts';
import { loadDocument, MAX_FORMER_BASE_URLS, preferencesSchema, profileSchema, tokensPlainSchema } from './document.ts';

export interface OpenOptions {
  backing: JsonBacking;
  cipher: TokenCipher;
  /** Text of a settings file that was not JSON (from the backing's deserialize hook), to back up. */
  corruptText?: string | null;
  onWarning?: ((message: string) => void) | undefined;
  /** Problems the caller met before (a damaged key file…), reported first. */
  earlyWarnings?: string[];
}

/** The settings over a backing and a cipher: reads once, then keeps the document in memory and writes it through on every change. */
export function openSettings(options: OpenOptions): SettingsStore {
  const { backing, cipher } = options;
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    (options.onWarning ?? ((m: string) => console.warn(`[settings] ${m}`)))(message);
  };
  const backup = (text: string, why: string) => {
    const target = `${backing.path}.corrupt-${Date.now()}`;
    try {
      writeFileSync(target, text, { mode: 0o600 });
      warn(`${why}; started with fresh settings (the old file is kept as ${target})`);
    } catch {
      warn(`${why}; started with fresh settings`);
    }
  };

  for (const m of options.earlyWarnings ?? []) warn(m);
  if (options.corruptText != null) backup(options.corruptText, `The settings file ${backing.path} was not valid JSON`);
  const { doc, problems } = loadDocument(backing.store);
  if (problems.length > 0 && options.corruptText == null) {
    backup(JSON.stringify(backing.store, null, 2), `Parts of the settings file were invalid (${problems.join('; ')})`);
  }
  const memoryTokens = new Map<string, StoredTokens>();
  const unavailableWarned = new Set<string>();

  const write = () => {
    backing.store = structuredClone(doc) as unknown as Record<string, unknown>;
  };
  if (problems.length > 0 || options.corruptText != null) write();

  const findIndex = (id: string) => doc.profiles.findIndex((p) => p.id === id);
  const forgetTokens = (profileId: string) => {
    memoryTokens.delete(profileId);
    if (profileId in doc.tokens) {
      delete doc.tokens[profileId];
      return true;
    }
    return false;
  };

  /** An address the profile had: kept (newest first, at most MAX_FORMER_BASE_URLS) so its ids can be mapped. */
  const rememberFormer = (profileId: string, former: string, current: string) => {
    const kept = (doc.formerBaseUrls[profileId] ?? []).filter((u) => u !== former && u !== current);
    doc.formerBaseUrls[profileId] = [former, ...kept].slice(0, MAX_FORMER_BASE_URLS);
  };

  const store: SettingsStore = {
    path: backing.path,
    get secureStorage() {
      return cipher.protection() === 'os-keychain';
    },
    get storageProtection() {
      return cipher.protection();
    },
    warnings,

    listProfiles: () => doc.profiles.map((p) => ({ ...p })),
    getProfile: (id) => {
      const p = doc.profiles.find((x) => x.id === id);
      return p ? { ...p } : null;
    },
    saveProfile(input) {
      const id = input.id ?? newProfileId(doc.profiles);
      const parsed = profileSchema.safeParse({ ...input, id, baseUrl: input.baseUrl?.replace(/\/+$/, '') });
      if (!parsed.success)
        throw new SettingsError(
          `Invalid profile: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      const profile: ServiceProfile = parsed.data;
      const index = findIndex(id);
      if (index >= 0) {
        const old = doc.profiles[index]!;
        // Tokens belong to one consumer on one service.
        if (old.baseUrl !== profile.baseUrl || old.consumerKey !== profile.consumerKey) forgetTokens(id);
        if (old.baseUrl !== profile.baseUrl) rememberFormer(id, old.baseUrl, profile.baseUrl);
        doc.profiles[index] = profile;
      } else {
        doc.profiles.push(profile);
      }
      if (doc.activeProfileId === null) doc.activeProfileId = id;
      write();
      return { ...profile };
    },
    deleteProfile(id) {
      if (id === EMBEDDED_PROFILE_ID) throw new SettingsError('The embedded service profile cannot be deleted');
      const index = findIndex(id);
      if (index < 0) return false;
      doc.profiles.splice(index, 1);
      forgetTokens(id);
      delete doc.formerBaseUrls[id];
      if (doc.activeProfileId === id)
        doc.activeProfileId = doc.profiles.find((p) => p.id === EMBEDDED_PROFILE_ID)?.id ?? doc.profiles[0]?.id ?? null;
      write();
      return true;
    },

    formerBaseUrls: (id) => [...(doc.formerBaseUrls[id] ?? [])],

    getActiveProfileId: () => doc.activeProfileId,
    getActiveProfile: () => (doc.activeProfileId === null ? null : store.getProfile(doc.activeProfileId)),
    setActiveProfile(id) {
      if (findIndex(id) < 0) throw new SettingsError(`No profile ${JSON.stringify(id)}`);
      if (doc.activeProfileId === id) return;
      doc.activeProfileId = id;
      write();
    },

    getPreferences: () => ({ ...doc.preferences }),
    setPreferences(patch) {
      // A key present but undefined (zod's `.partial()` lets one through) leaves that preference as it is.
      const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      const parsed = preferencesSchema.safeParse({ ...doc.preferences, ...changes });
      if (!parsed.success)
        throw new SettingsError(
          `Invalid preferences: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      doc.preferences = parsed.data;
      write();
      return { ...doc.preferences };
    },

    getAlerts: () => structuredClone(doc.alerts),
    setAlerts(value) {
      doc.alerts = structuredClone(value);
      write();
    },

    getTokens(profileId) {
      const inMemory = memoryTokens.get(profileId);
      if (inMemory) return { ...inMemory };
      const blob = doc.tokens[profileId];
      if (!blob) return null;
      try {
        const plain = tokensPlainSchema.parse(JSON.parse(cipher.decrypt(blob, profileId)));
        if (plain.profileId !== profileId) throw new Error('tokens of another profile');
        const tokens = { token: plain.token, secret: plain.secret, userId: plain.userId };
        memoryTokens.set(profileId, tokens);
        return { ...tokens };
      } catch (error) {
        if (error instanceof CipherUnavailableError) {
          if (!unavailableWarned.has(profileId))
            warn(
              `The saved sign-in for profile ${JSON.stringify(profileId)} cannot be decrypted while the system's encryption is unavailable`,
            );
          unavailableWarned.add(profileId);
          return null;
        }
        // Another machine's or user's key, a reset keychain, a tampered file: sign in again.
        warn(
          `The saved sign-in for profile ${JSON.stringify(profileId)} could not be decrypted and was forgotten; sign in again`,
        );
        delete doc.tokens[profileId];
        write();
        return null;
      }
    },
    setTokens(profileId, tokens) {
      if (findIndex(profileId) < 0) throw new SettingsError(`No profile ${JSON.stringify(profileId)}`);
      const clean = { token: tokens.token, secret: tokens.secret, userId: tokens.userId };
      memoryTokens.set(profileId, clean);
      const blob = cipher.encrypt(JSON.stringify({ profileId, ...clean }), profileId);
      if (blob === null) {
        // Memory only: and never leave an older persisted token behind.
        if (profileId in doc.tokens) {
          delete doc.tokens[profileId];
          write();
        }
        return { persisted: false };
      }
      doc.tokens[profileId] = blob;
      write();
      return { persisted: true };
    },
    clearTokens(profileId) {
      if (forgetTokens(profileId)) write();
    },
  };
  return store;
}

function newProfileId(profiles: ServiceProfile[]): string {
  for (;;) {
    const id = `p-${randomBytes(6).toString('hex')}`;
    if (!profiles.some((p) => p.id === id)) return id;
  }
}
