import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import type { ServiceProfile } from '../../shared/models.ts';

/**
 * The one settings model of the app's core, whatever keeps it on disk (settings.ts explains the two
 * implementations): service profiles, the active profile, UI preferences, and each profile's
 * access token, kept encrypted. Plain Node: never imports 'electron' nor 'electron-store'.
 */

/** The id of the profile that points at the embedded service (see ensureDefaultProfile). */
export const EMBEDDED_PROFILE_ID = 'embedded';

/** A small typed record the renderer reads and writes through main. */
export interface UiPreferences {
  theme: 'system' | 'light' | 'dark';
  /** The queue shown first. */
  defaultQueue: 'instant' | 'disc';
  /** Results per page in search and lists. */
  pageSize: number;
  /** Ask before removing a title from a queue. */
  confirmRemove: boolean;
}

export const DEFAULT_PREFERENCES: Readonly<UiPreferences> = Object.freeze({
  theme: 'system',
  defaultQueue: 'instant',
  pageSize: 25,
  confirmRemove: true,
});

/** A profile's OAuth access token and the subscriber it belongs to. */
export interface StoredTokens {
  token: string;
  secret: string;
  userId: string;
}

/**
 * How tokens are protected at rest:
 * - `os-keychain`: encrypted with the OS's credential store (Electron safeStorage: Keychain, DPAPI,
 *   libsecret/kwallet);
 * - `key-file`: AES-256-GCM with a key in a separate 0600 file next to the settings: protects a
 *   copied or backed-up settings file, but anyone who can read the user's files reads the key too;
 * - `memory-only`: no encryption available, so tokens are never written and signing in lasts until
 *   the app quits.
 */
export type StorageProtection = 'os-keychain' | 'key-file' | 'memory-only';

export type ProfileInput = Omit<ServiceProfile, 'id'> & { id?: string };

export interface SettingsStore {
  /** Where the settings live (the JSON file). */
  readonly path: string;
  /** AuthStatus.secureStorage: true only when tokens are protected by the OS's credential store. */
  readonly secureStorage: boolean;
  readonly storageProtection: StorageProtection;
  /** What went wrong while loading (corrupt file reset, undecryptable token dropped…), oldest first. */
  readonly warnings: readonly string[];

  listProfiles(): ServiceProfile[];
  getProfile(id: string): ServiceProfile | null;
  /** Creates (no id, or an unknown one) or updates a profile. Changing the base URL or consumer key of a profile forgets its tokens. */
  saveProfile(input: ProfileInput): ServiceProfile;
  /** Deletes a profile and its tokens; the embedded profile cannot be deleted. False if unknown. */
  deleteProfile(id: string): boolean;

  getActiveProfileId(): string | null;
  getActiveProfile(): ServiceProfile | null;
  /** Throws SettingsError for an unknown id. */
  setActiveProfile(id: string): void;

  getPreferences(): UiPreferences;
  /** Merges and validates (SettingsError on a bad value); returns the result. */
  setPreferences(patch: Partial<UiPreferences>): UiPreferences;

  getTokens(profileId: string): StoredTokens | null;
  /** `persisted: false` when tokens can only be kept in memory (storageProtection 'memory-only'). */
  setTokens(profileId: string, tokens: StoredTokens): { persisted: boolean };
  clearTokens(profileId: string): void;
}

export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

/** Thrown by a cipher that cannot decrypt right now (safeStorage unavailable): the stored blob is kept. */
export class CipherUnavailableError extends Error {
  constructor(message = 'Token encryption is unavailable') {
    super(message);
    this.name = 'CipherUnavailableError';
  }
}

/** Encrypts one profile's tokens for the file; the profile id is bound into the ciphertext. */
export interface TokenCipher {
  /** Evaluated on each use: Electron's safeStorage becomes available only once the app is ready. */
  protection(): StorageProtection;
  /** The value to store, or null when nothing may be written (memory-only). */
  encrypt(plain: string, profileId: string): EncryptedBlob | null;
  /** Throws when the blob cannot be decrypted (other key, tampered, other scheme). */
  decrypt(blob: EncryptedBlob, profileId: string): string;
}

export interface EncryptedBlob {
  scheme: string;
  data: string;
}

/** What conf and electron-store have in common that the settings use: the whole document at once. */
export interface JsonBacking {
  readonly path: string;
  store: Record<string, unknown>;
}

const profileSchema = z.object({
  id: z.string().min(1).max(64),
  label: z.string().min(1).max(100),
  baseUrl: z.string().url().max(2048).refine((u) => /^https?:\/\//i.test(u), 'must be http(s)'),
  consumerKey: z.string().min(1).max(200),
  consumerSecret: z.string().min(1).max(200),
});

const preferencesSchema = z.object({
  theme: z.enum(['system', 'light', 'dark']),
  defaultQueue: z.enum(['instant', 'disc']),
  pageSize: z.number().int().min(5).max(500),
  confirmRemove: z.boolean(),
});

const blobSchema = z.object({ scheme: z.string().min(1), data: z.string().min(1) });

interface SettingsDocument {
  version: 1;
  profiles: ServiceProfile[];
  activeProfileId: string | null;
  preferences: UiPreferences;
  tokens: Record<string, EncryptedBlob>;
}

const tokensPlainSchema = z.object({ profileId: z.string(), token: z.string().min(1), secret: z.string().min(1), userId: z.string() });

export interface OpenOptions {
  backing: JsonBacking;
  cipher: TokenCipher;
  /** Text of a settings file that was not JSON (from the backing's deserialize hook), to back up. */
  corruptText?: string | null;
  onWarning?: (message: string) => void;
  /** Problems the caller met before (a damaged key file…), reported first. */
  earlyWarnings?: string[];
}

/**
 * A JSON `deserialize` for conf/electron-store that never throws: a file that is not JSON reads as
 * empty, and its text is kept so openSettings can back it up and warn (instead of conf throwing
 * from its constructor, or silently clearing with clearInvalidConfig).
 */
export function tolerantDeserialize(): { deserialize: (text: string) => Record<string, unknown>; corruptText: () => string | null } {
  let corrupt: string | null = null;
  return {
    deserialize: (text: string) => {
      try {
        const value: unknown = JSON.parse(text);
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
      } catch {
        // fall through
      }
      corrupt = text;
      return {};
    },
    corruptText: () => corrupt,
  };
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
      if (!parsed.success) throw new SettingsError(`Invalid profile: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      const profile: ServiceProfile = parsed.data;
      const index = findIndex(id);
      if (index >= 0) {
        const old = doc.profiles[index]!;
        // Tokens belong to one consumer on one service.
        if (old.baseUrl !== profile.baseUrl || old.consumerKey !== profile.consumerKey) forgetTokens(id);
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
      if (doc.activeProfileId === id) doc.activeProfileId = doc.profiles.find((p) => p.id === EMBEDDED_PROFILE_ID)?.id ?? doc.profiles[0]?.id ?? null;
      write();
      return true;
    },

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
      const parsed = preferencesSchema.safeParse({ ...doc.preferences, ...patch });
      if (!parsed.success) throw new SettingsError(`Invalid preferences: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      doc.preferences = parsed.data;
      write();
      return { ...doc.preferences };
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
          if (!unavailableWarned.has(profileId)) warn(`The saved sign-in for profile ${JSON.stringify(profileId)} cannot be decrypted while the system's encryption is unavailable`);
          unavailableWarned.add(profileId);
          return null;
        }
        // Another machine's or user's key, a reset keychain, a tampered file: sign in again.
        warn(`The saved sign-in for profile ${JSON.stringify(profileId)} could not be decrypted and was forgotten; sign in again`);
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

/**
 * Creates or updates the profile of the embedded service so a first launch works with nothing
 * configured, and makes it active when no (valid) profile is. The embedded service may listen on
 * another port at each launch, so a new base URL keeps the tokens (same database); a new consumer
 * key forgets them.
 */
export function ensureDefaultProfile(
  store: SettingsStore,
  embedded: { baseUrl: string; consumerKey: string; consumerSecret: string; label?: string },
): ServiceProfile {
  const existing = store.getProfile(EMBEDDED_PROFILE_ID);
  const label = embedded.label ?? existing?.label ?? 'This computer';
  const wanted = { id: EMBEDDED_PROFILE_ID, label, baseUrl: embedded.baseUrl, consumerKey: embedded.consumerKey, consumerSecret: embedded.consumerSecret };
  let profile: ServiceProfile;
  if (
    existing &&
    existing.label === wanted.label &&
    existing.baseUrl === wanted.baseUrl.replace(/\/+$/, '') &&
    existing.consumerKey === wanted.consumerKey &&
    existing.consumerSecret === wanted.consumerSecret
  ) {
    profile = existing;
  } else {
    const keep = existing && existing.consumerKey === wanted.consumerKey ? store.getTokens(EMBEDDED_PROFILE_ID) : null;
    profile = store.saveProfile(wanted);
    if (keep && !store.getTokens(EMBEDDED_PROFILE_ID)) store.setTokens(EMBEDDED_PROFILE_ID, keep);
  }
  const active = store.getActiveProfileId();
  if (active === null || store.getProfile(active) === null) store.setActiveProfile(EMBEDDED_PROFILE_ID);
  return profile;
}

function newProfileId(profiles: ServiceProfile[]): string {
  for (;;) {
    const id = `p-${randomBytes(6).toString('hex')}`;
    if (!profiles.some((p) => p.id === id)) return id;
  }
}

/** Salvages what it can of a stored document; `problems` lists what had to be dropped. */
function loadDocument(raw: Record<string, unknown>): { doc: SettingsDocument; problems: string[] } {
  const problems: string[] = [];
  const isEmpty = Object.keys(raw).filter((k) => k !== '__internal__').length === 0;
  const doc: SettingsDocument = { version: 1, profiles: [], activeProfileId: null, preferences: { ...DEFAULT_PREFERENCES }, tokens: {} };
  if (isEmpty) return { doc, problems };
  if (raw.version !== undefined && raw.version !== 1) problems.push(`unknown version ${JSON.stringify(raw.version)}`);

  if (Array.isArray(raw.profiles)) {
    for (const entry of raw.profiles) {
      const p = profileSchema.safeParse(entry);
      if (p.success && !doc.profiles.some((x) => x.id === p.data.id)) doc.profiles.push(p.data);
      else problems.push('a profile');
    }
  } else if (raw.profiles !== undefined) problems.push('profiles');

  if (typeof raw.activeProfileId === 'string' && doc.profiles.some((p) => p.id === raw.activeProfileId)) doc.activeProfileId = raw.activeProfileId;
  else if (raw.activeProfileId !== undefined && raw.activeProfileId !== null) problems.push('the active profile');
  if (doc.activeProfileId === null && doc.profiles.length > 0) doc.activeProfileId = doc.profiles[0]!.id;

  if (raw.preferences !== undefined) {
    const prefs = raw.preferences !== null && typeof raw.preferences === 'object' ? (raw.preferences as Record<string, unknown>) : null;
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
  return { doc, problems };
}
