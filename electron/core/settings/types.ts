import type { ServiceProfile } from '../../../shared/models.ts';
import { DEFAULT_PREFERENCES, type Preferences } from '../../../shared/preferences.ts';
import type { StoredAlerts } from './alerts-document.ts';
import { ServiceError } from '../types.ts';

/**
 * The one settings model of the app's core, whatever keeps it on disk (index.ts explains the two
 * implementations): service profiles, the active profile, UI preferences, and each profile's
 * access token, kept encrypted. Plain Node: never imports 'electron' nor 'electron-store'.
 *
 * This file holds the types and errors every part shares; the store itself is openSettings
 * (store.ts), over the document on disk (document.ts).
 */

/** The id of the profile that points at the embedded service (see ensureDefaultProfile). */
export const EMBEDDED_PROFILE_ID = 'embedded';

/** The person's preferences (shared/preferences.ts): the renderer reads and writes them through the core. */
export type UiPreferences = Preferences;
export { DEFAULT_PREFERENCES };

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

export type ProfileInput = Omit<ServiceProfile, 'id'> & { id?: string | undefined };

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
  /**
   * The profile's older base URLs, newest first (recorded whenever its base URL changes, e.g. the
   * embedded service on another port): ids kept from them are mapped to the current one.
   */
  formerBaseUrls(profileId: string): string[];
  /** Deletes a profile and its tokens; the embedded profile cannot be deleted. False if unknown. */
  deleteProfile(id: string): boolean;

  getActiveProfileId(): string | null;
  getActiveProfile(): ServiceProfile | null;
  /** Throws SettingsError for an unknown id. */
  setActiveProfile(id: string): void;

  getPreferences(): UiPreferences;
  /** Merges and validates (SettingsError on a bad value); returns the result. */
  setPreferences(patch: { [K in keyof UiPreferences]?: UiPreferences[K] | undefined }): UiPreferences;

  /** The availability alerts' settings and what each account was told (a copy). */
  getAlerts(): StoredAlerts;
  /** Replaces them (written through at once, so an event told is never told again after a restart). */
  setAlerts(value: StoredAlerts): void;

  getTokens(profileId: string): StoredTokens | null;
  /** `persisted: false` when tokens can only be kept in memory (storageProtection 'memory-only'). */
  setTokens(profileId: string, tokens: StoredTokens): { persisted: boolean };
  clearTokens(profileId: string): void;
}

/** A settings change refused (unknown profile, invalid value): a ServiceError 'invalid', its message for the user. */
export class SettingsError extends ServiceError {
  constructor(message: string) {
    super({ kind: 'invalid', message });
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
