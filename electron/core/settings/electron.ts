import { CipherUnavailableError, type JsonBacking, type SettingsStore, type TokenCipher } from './types.ts';
import { backingOptions } from './document.ts';
import { openSettings } from './store.ts';

/**
 * The settings in the Electron app: an `electron-store` JSON file in userData, tokens encrypted
 * with Electron's `safeStorage` (Keychain on macOS, DPAPI on Windows, libsecret/kwallet on Linux).
 *
 * electron/core never imports 'electron' (nor 'electron-store', which imports it; the import rule
 * of .dependency-cruiser.cjs forbids both): main.ts passes both in, as CoreEnvironment's
 * `settingsStore` (electron-store's default export) and `secretCipher` (Electron's safeStorage),
 * after `app.whenReady()` (safeStorage answers only once the app is ready). Only the few safeStorage methods of `SafeStorageLike` (below) are used.
 *
 * When encryption is unavailable (or on Linux, when safeStorage falls back to its 'basic_text'
 * backend, a hard-coded key), tokens are NOT written: they stay in memory until the app quits
 * (storageProtection 'memory-only', secureStorage false, so the UI can say signing in will not be
 * remembered). A previously saved token that can no longer be decrypted is forgotten with a warning.
 * We chose this over storing with a warning: a token on disk is a standing credential for the
 * account, and re-signing in through the browser costs the user a few seconds.
 */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron; 'basic_text' means no real encryption. */
  getSelectedStorageBackend?(): string;
}

/** What the settings need of electron-store's options (a subset of its `Options`). */
export interface ElectronStoreOptionsSubset {
  name?: string;
  cwd?: string;
  configFileMode?: number;
  clearInvalidConfig?: boolean;
  accessPropertiesByDotNotation?: boolean;
  deserialize?: (text: string) => Record<string, unknown>;
}

/** `electron-store`'s default export (or anything constructed alike, e.g. `conf` in tests). */
export type ElectronStoreConstructor = new (options: ElectronStoreOptionsSubset) => JsonBacking;

export interface ElectronSettingsOptions {
  Store: ElectronStoreConstructor;
  safeStorage: SafeStorageLike;
  /** File name without extension; default 'settings'. */
  name?: string;
  /** Directory; electron-store defaults to app.getPath('userData'). */
  cwd?: string;
  onWarning?: ((message: string) => void) | undefined;
}

export const SAFE_STORAGE_SCHEME = 'electron-safe-storage-v1';

export function openElectronSettings(options: ElectronSettingsOptions): SettingsStore {
  const shared = backingOptions();
  const backing = new options.Store({
    name: options.name ?? 'settings',
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...shared.options,
  });
  return openSettings({
    backing,
    cipher: safeStorageCipher(options.safeStorage),
    corruptText: shared.corruptText(),
    onWarning: options.onWarning,
  });
}

export function safeStorageCipher(safeStorage: SafeStorageLike): TokenCipher {
  const available = (): boolean => {
    try {
      if (!safeStorage.isEncryptionAvailable()) return false;
      return safeStorage.getSelectedStorageBackend?.() !== 'basic_text';
    } catch {
      return false;
    }
  };
  return {
    protection: () => (available() ? 'os-keychain' : 'memory-only'),
    encrypt(plain) {
      // The plaintext carries the profile id, checked on decrypt (safeStorage takes no associated data).
      if (!available()) return null;
      return { scheme: SAFE_STORAGE_SCHEME, data: safeStorage.encryptString(plain).toString('base64') };
    },
    decrypt(blob) {
      if (blob.scheme !== SAFE_STORAGE_SCHEME) throw new Error(`not ${SAFE_STORAGE_SCHEME}`);
      if (!available()) throw new CipherUnavailableError();
      return safeStorage.decryptString(Buffer.from(blob.data, 'base64'));
    },
  };
}
