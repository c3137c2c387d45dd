/**
 * Settings of the app's core: ONE interface (`SettingsStore`), two implementations.
 *
 * - `openElectronSettings` (electron.ts), in the Electron app: electron-store + Electron's
 *   safeStorage, both injected by the shell (electron/core never imports 'electron'). Tokens are
 *   encrypted with the OS's credential store; when it is unavailable they are kept in memory only
 *   and `secureStorage` is false.
 * - `openNodeSettings` (node.ts), in plain Node (web host, tests): conf + AES-256-GCM
 *   with a key in a separate 0600 file; weaker than an OS keychain (see that file).
 *
 * Both keep: service profiles, the active profile, UI preferences, and tokens encrypted per
 * profile. A settings file that is not valid JSON, or holds invalid parts, does not stop the app:
 * it is copied to `<file>.corrupt-<ms>`, the valid parts are kept (none for non-JSON), and a warning
 * is reported (`onWarning`, and `store.warnings`). Other rooms import only this file.
 */
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
} from './types.ts';
export { ensureDefaultProfile } from './default-profile.ts';
export {
  EMPTY_ACCOUNT_ALERTS,
  type AccountAlerts,
  type Observation,
  type StoredAlert,
  type StoredAlerts,
} from './alerts-document.ts';
export { openHostSettings, type HostSettingsOptions } from './host.ts';
export { tolerantDeserialize } from './document.ts';
export { openSettings, type OpenOptions } from './store.ts';
export { KEY_FILE_SCHEME, keyFileCipher, openNodeSettings, type NodeSettingsOptions } from './node.ts';
export {
  SAFE_STORAGE_SCHEME,
  openElectronSettings,
  safeStorageCipher,
  type ElectronSettingsOptions,
  type ElectronStoreConstructor,
  type ElectronStoreOptionsSubset,
  type SafeStorageLike,
} from './electron.ts';
