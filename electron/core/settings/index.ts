/**
 * Settings of the app's core: ONE interface (`SettingsStore`), two implementations.
 *
 * - `openElectronSettings` (settings-electron.ts), in the Electron app: electron-store + Electron's
 *   safeStorage, both injected by the shell (electron/core never imports 'electron'). Tokens are
 *   encrypted with the OS's credential store; when it is unavailable they are kept in memory only
 *   and `secureStorage` is false.
 * - `openNodeSettings` (settings-node.ts), in plain Node (web host, tests): conf + AES-256-GCM
 *   with a key in a separate 0600 file; weaker than an OS keychain (see that file).
 *
 * Both keep: service profiles, the active profile, UI preferences, and tokens encrypted per
 * profile. A settings file that is not valid JSON, or holds invalid parts, does not stop the app:
 * it is copied to `<file>.corrupt-<ms>`, the valid parts are kept (none for non-JSON), and a warning
 * is reported (`onWarning`, and `store.warnings`).
 */
import type { SettingsStore } from './settings-core.ts';
import { openNodeSettings } from './settings-node.ts';
import { openElectronSettings, type ElectronStoreConstructor, type SafeStorageLike } from './settings-electron.ts';

export {
  CipherUnavailableError,
  DEFAULT_PREFERENCES,
  EMBEDDED_PROFILE_ID,
  SettingsError,
  type EncryptedBlob,
  type JsonBacking,
  type ProfileInput,
  type SettingsStore,
  type StorageProtection,
  type StoredTokens,
  type TokenCipher,
  type UiPreferences,
} from './settings-core.ts';
export { ensureDefaultProfile } from './settings-default-profile.ts';
export { tolerantDeserialize } from './settings-document.ts';
export { openSettings, type OpenOptions } from './settings-store.ts';
export { KEY_FILE_SCHEME, keyFileCipher, openNodeSettings, type NodeSettingsOptions } from './settings-node.ts';
export {
  SAFE_STORAGE_SCHEME,
  openElectronSettings,
  safeStorageCipher,
  type ElectronSettingsOptions,
  type ElectronStoreConstructor,
  type ElectronStoreOptionsSubset,
  type SafeStorageLike,
} from './settings-electron.ts';

/**
 * The settings for a host as CoreEnvironment describes it: 'electron' → the electron-store class
 * main passes as `settingsStore` + the safeStorage passed as `secretCipher` (none: tokens
 * memory-only); 'node' → conf + key file. Both under `userDataDir`, file `settings.json`.
 */
export async function openHostSettings(env: {
  host: 'electron' | 'node';
  userDataDir: string;
  secretCipher?: SafeStorageLike;
  settingsStore?: ElectronStoreConstructor;
  onWarning?: (message: string) => void;
}): Promise<SettingsStore> {
  if (env.host === 'node') return openNodeSettings({ dir: env.userDataDir, onWarning: env.onWarning });
  if (!env.settingsStore) throw new Error('The Electron host must pass electron-store as settingsStore.');
  const unavailable = { isEncryptionAvailable: () => false, encryptString: (): Buffer => { throw new Error('unavailable'); }, decryptString: (): string => { throw new Error('unavailable'); } };
  return openElectronSettings({ Store: env.settingsStore, safeStorage: env.secretCipher ?? unavailable, cwd: env.userDataDir, onWarning: env.onWarning });
}
