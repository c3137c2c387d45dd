import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import type { EncryptedBlob, SettingsStore, TokenCipher } from './types.ts';
import { backingOptions } from './document.ts';
import { openSettings } from './store.ts';

/**
 * The settings in plain Node (the web host, tests): a `conf` JSON file, tokens encrypted with
 * AES-256-GCM under a random 256-bit key kept in a separate file (`<name>.key`, mode 0600, in a
 * 0700 directory).
 *
 * WEAKER THAN AN OS KEYCHAIN: the key sits next to the settings, protected only by file
 * permissions, so anyone (or any process) that can read the user's files can decrypt the tokens.
 * It protects a settings file copied, synced or backed up on its own. Reported as
 * storageProtection 'key-file' and secureStorage false.
 */
export interface NodeSettingsOptions {
  /** Directory for `<name>.json` and `<name>.key` (created 0700 if missing). */
  dir: string;
  /** File name without extension; default 'settings'. */
  name?: string;
  onWarning?: ((message: string) => void) | undefined;
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_FILE_SCHEME = 'aes-256-gcm-keyfile-v1';

export function openNodeSettings(options: NodeSettingsOptions): SettingsStore {
  const name = options.name ?? 'settings';
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const warnings: string[] = [];
  const key = loadOrCreateKey(join(options.dir, `${name}.key`), (m) => warnings.push(m));
  const shared = backingOptions();
  const backing = new Conf<Record<string, unknown>>({ cwd: options.dir, configName: name, ...shared.options });
  return openSettings({
    backing,
    cipher: keyFileCipher(key),
    corruptText: shared.corruptText(),
    onWarning: options.onWarning,
    earlyWarnings: warnings,
  });
}

/** AES-256-GCM with a fresh IV per token; the profile id is the associated data. */
export function keyFileCipher(key: Buffer): TokenCipher {
  if (key.length !== KEY_BYTES) throw new Error('AES-256 needs a 32-byte key');
  return {
    protection: () => 'key-file',
    encrypt(plain, profileId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(profileId, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return { scheme: KEY_FILE_SCHEME, data: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64') };
    },
    decrypt(blob: EncryptedBlob, profileId) {
      if (blob.scheme !== KEY_FILE_SCHEME) throw new Error(`not ${KEY_FILE_SCHEME}`);
      const raw = Buffer.from(blob.data, 'base64');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(profileId, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

/** Reads the key file, or creates it (exclusively, 0600); a damaged one is moved aside and replaced. */
function loadOrCreateKey(path: string, warn: (message: string) => void): Buffer {
  for (let attempt = 0; attempt < 3; attempt++) {
    let existing: Buffer | null = null;
    try {
      existing = readFileSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (existing !== null) {
      const key = Buffer.from(existing.toString('utf8').trim(), 'base64');
      if (key.length === KEY_BYTES) {
        if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) {
          chmodSync(path, 0o600);
          warn(`The token key file ${path} was readable by others; its mode is now 0600`);
        }
        return key;
      }
      const aside = `${path}.corrupt-${Date.now()}`;
      renameSync(path, aside);
      warn(`The token key file was damaged (moved to ${aside}); saved sign-ins cannot be read and must be repeated`);
    }
    try {
      const key = randomBytes(KEY_BYTES);
      writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      return key;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Another process created it first: read theirs.
    }
  }
  throw new Error(`Could not create the token key file ${path}`);
}
