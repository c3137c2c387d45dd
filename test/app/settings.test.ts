import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_PREFERENCES,
  EMBEDDED_PROFILE_ID,
  SettingsError,
  ensureDefaultProfile,
  openElectronSettings,
  openNodeSettings,
  type ElectronStoreConstructor,
  type SafeStorageLike,
  type SettingsStore,
} from '../../electron/core/settings/index.ts';

const SECRET = 'tok-secret-5f2c9e1d8b7a';
const TOKENS = { token: 'tok-key-a1b2c3', secret: SECRET, userId: 'T1abc' };
const EMBEDDED = { baseUrl: 'http://127.0.0.1:8710', consumerKey: 'ck-embedded', consumerSecret: 'cs-embedded' };
const OTHER = {
  label: 'Staging',
  baseUrl: 'https://staging.example.com/',
  consumerKey: 'ck-stage',
  consumerSecret: 'cs-stage',
};

let dir: string;
const warnings: string[] = [];
const onWarning = (m: string) => warnings.push(m);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'marquee-settings-'));
  warnings.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const rawFile = (name = 'settings') => readFileSync(join(dir, `${name}.json`), 'utf8');

/** The same behaviour from both implementations. */
function behaves(open: () => SettingsStore) {
  it('starts empty, then ensureDefaultProfile makes the embedded profile and activates it', () => {
    const s = open();
    expect(s.listProfiles()).toEqual([]);
    expect(s.getActiveProfileId()).toBeNull();
    expect(s.getPreferences()).toEqual(DEFAULT_PREFERENCES);
    const p = ensureDefaultProfile(s, EMBEDDED);
    expect(p).toEqual({ id: EMBEDDED_PROFILE_ID, label: 'This computer', ...EMBEDDED });
    expect(s.getActiveProfile()).toEqual(p);
    // Idempotent; a new port keeps the tokens, a new consumer key forgets them.
    s.setTokens(EMBEDDED_PROFILE_ID, TOKENS);
    ensureDefaultProfile(s, EMBEDDED);
    ensureDefaultProfile(s, { ...EMBEDDED, baseUrl: 'http://127.0.0.1:9999' });
    expect(s.getProfile(EMBEDDED_PROFILE_ID)!.baseUrl).toBe('http://127.0.0.1:9999');
    expect(s.getTokens(EMBEDDED_PROFILE_ID)).toEqual(TOKENS);
    ensureDefaultProfile(s, { ...EMBEDDED, consumerKey: 'ck-new' });
    expect(s.getTokens(EMBEDDED_PROFILE_ID)).toBeNull();
    expect(s.listProfiles()).toHaveLength(1);
  });

  it('profiles CRUD and the active profile, persisted', () => {
    const s = open();
    ensureDefaultProfile(s, EMBEDDED);
    const staging = s.saveProfile(OTHER);
    expect(staging.id).toMatch(/^p-[0-9a-f]{12}$/);
    expect(staging.baseUrl).toBe('https://staging.example.com'); // trailing slash trimmed
    expect(s.listProfiles().map((p) => p.id)).toEqual([EMBEDDED_PROFILE_ID, staging.id]);
    expect(s.getActiveProfileId()).toBe(EMBEDDED_PROFILE_ID);
    s.setActiveProfile(staging.id);
    expect(() => s.setActiveProfile('nope')).toThrow(SettingsError);
    expect(() => s.saveProfile({ ...OTHER, baseUrl: 'ftp://x' })).toThrow(SettingsError);
    expect(() => s.saveProfile({ ...OTHER, consumerKey: '' })).toThrow(SettingsError);

    // Update: a label change keeps tokens; a base URL change forgets them.
    s.setTokens(staging.id, TOKENS);
    s.saveProfile({ ...staging, label: 'Stage' });
    expect(s.getTokens(staging.id)).toEqual(TOKENS);
    s.saveProfile({ ...staging, label: 'Stage', baseUrl: 'https://other.example.com' });
    expect(s.getTokens(staging.id)).toBeNull();

    const again = open();
    expect(again.getActiveProfileId()).toBe(staging.id);
    expect(again.getProfile(staging.id)).toMatchObject({ label: 'Stage', baseUrl: 'https://other.example.com' });

    // Delete: the active one falls back to the embedded profile; the embedded one stays.
    expect(again.deleteProfile(staging.id)).toBe(true);
    expect(again.deleteProfile(staging.id)).toBe(false);
    expect(again.getActiveProfileId()).toBe(EMBEDDED_PROFILE_ID);
    expect(() => again.deleteProfile(EMBEDDED_PROFILE_ID)).toThrow(SettingsError);
    expect(
      open()
        .listProfiles()
        .map((p) => p.id),
    ).toEqual([EMBEDDED_PROFILE_ID]);
  });

  it('UI preferences: typed, validated, persisted', () => {
    const s = open();
    expect(s.setPreferences({ theme: 'dark', pageSize: 50 })).toEqual({
      ...DEFAULT_PREFERENCES,
      theme: 'dark',
      pageSize: 50,
    });
    expect(() => s.setPreferences({ pageSize: 0 })).toThrow(SettingsError);
    expect(() => s.setPreferences({ theme: 'neon' as 'dark' })).toThrow(SettingsError);
    expect(open().getPreferences()).toEqual({ ...DEFAULT_PREFERENCES, theme: 'dark', pageSize: 50 });
  });

  it('a preference sent as undefined (as IPC input may be) stays as it was', () => {
    const s = open();
    s.setPreferences({ theme: 'dark' });
    expect(s.setPreferences({ theme: undefined, pageSize: 40 })).toEqual({
      ...DEFAULT_PREFERENCES,
      theme: 'dark',
      pageSize: 40,
    });
  });

  it('a corrupt settings file does not crash: fresh settings, a warning, the old file kept aside', () => {
    const s = open();
    ensureDefaultProfile(s, EMBEDDED);
    writeFileSync(s.path, '{"profiles": [ {"id": "embedded", tru');
    const fresh = open();
    expect(fresh.listProfiles()).toEqual([]);
    expect(fresh.warnings.join('\n')).toMatch(/not valid JSON/);
    expect(warnings.join('\n')).toMatch(/not valid JSON/);
    expect(readdirSync(dir).some((f) => f.includes('.corrupt-'))).toBe(true);
    ensureDefaultProfile(fresh, EMBEDDED);
    expect(open().getActiveProfileId()).toBe(EMBEDDED_PROFILE_ID);
  });

  it('salvages the valid parts of a file with invalid ones', () => {
    const s = open();
    ensureDefaultProfile(s, EMBEDDED);
    const doc = JSON.parse(readFileSync(s.path, 'utf8'));
    doc.profiles.push({ id: 'broken', label: '' });
    doc.preferences.pageSize = 'lots';
    writeFileSync(s.path, JSON.stringify(doc));
    const salvaged = open();
    expect(salvaged.listProfiles().map((p) => p.id)).toEqual([EMBEDDED_PROFILE_ID]);
    expect(salvaged.getPreferences().pageSize).toBe(DEFAULT_PREFERENCES.pageSize);
    expect(salvaged.warnings.join('\n')).toMatch(/a profile; preference pageSize/);
  });

  it('a settings file is readable by its owner only', () => {
    const s = open();
    ensureDefaultProfile(s, EMBEDDED);
    if (process.platform !== 'win32') expect(statSync(s.path).mode & 0o777).toBe(0o600);
  });
}

describe('Node settings (conf + AES-256-GCM key file)', () => {
  const open = () => openNodeSettings({ dir, onWarning });
  behaves(open);

  it('keeps tokens encrypted at rest and decrypts them after a reload', () => {
    const s = open();
    ensureDefaultProfile(s, EMBEDDED);
    expect(s.storageProtection).toBe('key-file');
    expect(s.secureStorage).toBe(false); // weaker than an OS keychain: the UI may warn
    expect(s.setTokens(EMBEDDED_PROFILE_ID, TOKENS)).toEqual({ persisted: true });
    const raw = rawFile();
    expect(raw).not.toContain(SECRET);
    expect(raw).not.toContain(TOKENS.token);
    expect(JSON.parse(raw).tokens.embedded.scheme).toBe('aes-256-gcm-keyfile-v1');
    const key = join(dir, 'settings.key');
    if (process.platform !== 'win32') expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(readFileSync(key, 'utf8')).not.toContain(SECRET);
    expect(open().getTokens(EMBEDDED_PROFILE_ID)).toEqual(TOKENS);
  });

  it('forgets tokens on clear, and a token it cannot decrypt (another key) with a warning', () => {
    const s = open();
    ensureDefaultProfile(s, EMBEDDED);
    const staging = s.saveProfile(OTHER);
    s.setTokens(EMBEDDED_PROFILE_ID, TOKENS);
    s.setTokens(staging.id, { ...TOKENS, userId: 'T1other' });
    s.clearTokens(staging.id);
    expect(open().getTokens(staging.id)).toBeNull();
    expect(JSON.parse(rawFile()).tokens).not.toHaveProperty(staging.id);

    // A blob moved to another profile does not decrypt there (the profile id is bound in).
    const doc = JSON.parse(rawFile());
    s.setTokens(staging.id, TOKENS);
    const moved = JSON.parse(rawFile());
    moved.tokens[EMBEDDED_PROFILE_ID] = moved.tokens[staging.id];
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(moved));
    expect(open().getTokens(EMBEDDED_PROFILE_ID)).toBeNull();
    expect(warnings.join('\n')).toMatch(/could not be decrypted/);
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(doc));

    // A new key (the key file was lost): the saved sign-in is forgotten, not a crash.
    rmSync(join(dir, 'settings.key'));
    const rekeyed = open();
    expect(rekeyed.getTokens(EMBEDDED_PROFILE_ID)).toBeNull();
    expect(JSON.parse(rawFile()).tokens).toEqual({});
  });

  it('replaces a damaged key file with a warning', () => {
    const s = open();
    ensureDefaultProfile(s, EMBEDDED);
    s.setTokens(EMBEDDED_PROFILE_ID, TOKENS);
    writeFileSync(join(dir, 'settings.key'), 'short');
    const again = open();
    expect(again.warnings.join('\n')).toMatch(/key file was damaged/);
    expect(again.getTokens(EMBEDDED_PROFILE_ID)).toBeNull();
    again.setTokens(EMBEDDED_PROFILE_ID, TOKENS);
    expect(open().getTokens(EMBEDDED_PROFILE_ID)).toEqual(TOKENS);
  });
});

/** A stand-in for Electron's safeStorage: reversible, but visibly not plaintext. */
function fakeSafeStorage(available = true): SafeStorageLike & { available: boolean; calls: number } {
  const mask = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));
  return {
    available,
    calls: 0,
    isEncryptionAvailable() {
      return this.available;
    },
    encryptString(s: string) {
      if (!this.available) throw new Error('Encryption is not available.');
      this.calls++;
      return Buffer.concat([Buffer.from('v10'), mask(Buffer.from(s, 'utf8'))]);
    },
    decryptString(b: Buffer) {
      if (!this.available) throw new Error('Decryption is not available.');
      if (b.subarray(0, 3).toString() !== 'v10')
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return mask(b.subarray(3)).toString('utf8');
    },
  };
}

describe('Electron settings (electron-store + safeStorage, injected)', () => {
  // electron-store imports 'electron', which in plain Node is the binary's path (and tries to
  // download it when missing): point that at nothing, and construct the real electron-store with
  // an explicit cwd. Its base class, conf, is what it runs on either way.
  let ElectronStore: ElectronStoreConstructor;
  beforeEach(async () => {
    process.env.ELECTRON_OVERRIDE_DIST_PATH ??= join(tmpdir(), 'no-electron-here');
    ElectronStore = (await import('electron-store')).default;
  });

  describe('with encryption available', () => {
    const safe = fakeSafeStorage(true);
    const open = () => openElectronSettings({ Store: ElectronStore, safeStorage: safe, cwd: dir, onWarning });
    behaves(open);

    it('encrypts tokens with safeStorage and reads them back after a reload', () => {
      const s = open();
      ensureDefaultProfile(s, EMBEDDED);
      expect(s.secureStorage).toBe(true);
      expect(s.storageProtection).toBe('os-keychain');
      expect(s.setTokens(EMBEDDED_PROFILE_ID, TOKENS)).toEqual({ persisted: true });
      const raw = rawFile();
      expect(raw).not.toContain(SECRET);
      expect(JSON.parse(raw).tokens.embedded.scheme).toBe('electron-safe-storage-v1');
      expect(open().getTokens(EMBEDDED_PROFILE_ID)).toEqual(TOKENS);
    });
  });

  describe('with encryption unavailable', () => {
    it('keeps tokens in memory only and reports secureStorage false', () => {
      const safe = fakeSafeStorage(false);
      const s = openElectronSettings({ Store: ElectronStore, safeStorage: safe, cwd: dir, onWarning });
      ensureDefaultProfile(s, EMBEDDED);
      expect(s.secureStorage).toBe(false);
      expect(s.storageProtection).toBe('memory-only');
      expect(s.setTokens(EMBEDDED_PROFILE_ID, TOKENS)).toEqual({ persisted: false });
      expect(s.getTokens(EMBEDDED_PROFILE_ID)).toEqual(TOKENS); // this session still signs
      expect(rawFile()).not.toContain(SECRET);
      expect(JSON.parse(rawFile()).tokens).toEqual({});
      // Next launch: not signed in.
      expect(
        openElectronSettings({ Store: ElectronStore, safeStorage: safe, cwd: dir, onWarning }).getTokens(
          EMBEDDED_PROFILE_ID,
        ),
      ).toBeNull();
    });

    it("treats Linux's basic_text backend as unavailable", () => {
      const safe = { ...fakeSafeStorage(true), getSelectedStorageBackend: () => 'basic_text' };
      const s = openElectronSettings({ Store: ElectronStore, safeStorage: safe, cwd: dir, onWarning });
      ensureDefaultProfile(s, EMBEDDED);
      expect(s.secureStorage).toBe(false);
      expect(s.setTokens(EMBEDDED_PROFILE_ID, TOKENS)).toEqual({ persisted: false });
    });

    it('keeps a saved token while encryption is unavailable, and reads it once it is back', () => {
      const safe = fakeSafeStorage(true);
      const open = () => openElectronSettings({ Store: ElectronStore, safeStorage: safe, cwd: dir, onWarning });
      const s = open();
      ensureDefaultProfile(s, EMBEDDED);
      s.setTokens(EMBEDDED_PROFILE_ID, TOKENS);
      safe.available = false;
      expect(open().getTokens(EMBEDDED_PROFILE_ID)).toBeNull();
      expect(warnings.join('\n')).toMatch(/encryption is unavailable/);
      safe.available = true;
      expect(open().getTokens(EMBEDDED_PROFILE_ID)).toEqual(TOKENS);
    });
  });
});
