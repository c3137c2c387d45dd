import { openElectronSettings, type ElectronStoreConstructor, type SafeStorageLike } from './electron.ts';
import { openNodeSettings } from './node.ts';
import type { SettingsStore } from './types.ts';

/** What a host (CoreEnvironment) says of its settings. */
export interface HostSettingsOptions {
  host: 'electron' | 'node';
  userDataDir: string;
  secretCipher?: SafeStorageLike;
  settingsStore?: ElectronStoreConstructor;
  onWarning?: (message: string) => void;
}

/**
 * The settings for a host as CoreEnvironment describes it: 'electron' → the electron-store class
 * main passes as `settingsStore` + the safeStorage passed as `secretCipher` (none: tokens
 * memory-only); 'node' → conf + key file. Both under `userDataDir`, file `settings.json`.
 */
export function openHostSettings(env: HostSettingsOptions): SettingsStore {
  if (env.host === 'node') return openNodeSettings({ dir: env.userDataDir, onWarning: env.onWarning });
  if (!env.settingsStore) throw new Error('The Electron host must pass electron-store as settingsStore.');
  const unavailable = {
    isEncryptionAvailable: () => false,
    encryptString: (): Buffer => {
      throw new Error('unavailable');
    },
    decryptString: (): string => {
      throw new Error('unavailable');
    },
  };
  return openElectronSettings({
    Store: env.settingsStore,
    safeStorage: env.secretCipher ?? unavailable,
    cwd: env.userDataDir,
    onWarning: env.onWarning,
  });
}
