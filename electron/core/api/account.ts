import type { AuthStatus, SignInPending, User } from '../../../shared/models.ts';
import type { AuthSession } from '../auth/index.ts';
import type { Client } from '../client/index.ts';
import type { QueueSync } from '../queue/index.ts';
import type { SettingsStore } from '../settings/index.ts';
import type { EtagCacheStore } from '../transport/index.ts';
import { ServiceError } from '../types.ts';
import type { CoreEvents } from './events.ts';

/** `${profileId}:${userId}` of who is signed in to the active profile, or null. */
export function accountKey(settings: SettingsStore, auth: AuthSession): string | null {
  const profileId = settings.getActiveProfileId();
  const tokens = profileId === null ? null : auth.tokens(profileId);
  return tokens ? `${profileId}:${tokens.userId}` : null;
}

interface AccountParts {
  settings: SettingsStore;
  auth: AuthSession;
  client: Client;
  sync: QueueSync;
  caches: EtagCacheStore;
  events: CoreEvents;
}

/**
 * Who the core works for: follows sign-in, sign-out and profile changes (re-pointing the client
 * and the queue sync), answers AuthStatus (asking the service who is signed in once per account),
 * and announces every change as 'auth.changed'.
 */
export class Account {
  /** The account the client and queue sync were last pointed at (undefined: never). */
  #pointedAt: string | null | undefined;
  #user: { account: string; user: User } | null = null;
  #announced = '';

  constructor(private readonly parts: AccountParts) {}

  key(): string | null {
    return accountKey(this.parts.settings, this.parts.auth);
  }

  /** Re-points the client and the queue sync when the account changed. */
  follow(): void {
    const now = this.key();
    if (now === this.#pointedAt) return;
    this.#pointedAt = now;
    this.#user = null;
    const tokens = this.parts.auth.tokens();
    this.parts.client.setUser(tokens?.userId ? tokens.userId : null);
    this.parts.sync.resume();
  }

  async status(): Promise<AuthStatus> {
    this.follow();
    const { settings } = this.parts;
    const profileId = settings.getActiveProfileId() ?? '';
    const acct = this.key();
    const base = { profileId, account: acct, secureStorage: settings.secureStorage, pending: this.#pending() };
    if (acct === null) return { ...base, signedIn: false, user: null };
    if (this.#user?.account === acct) return { ...base, signedIn: true, user: this.#user.user };
    try {
      const current = await this.parts.client.currentUser();
      if (this.key() === acct) this.#user = { account: acct, user: current };
      return { ...base, signedIn: true, user: current };
    } catch (error) {
      if (isRefusedToken(error)) return this.#forget(profileId, acct);
      if (error instanceof ServiceError) return { ...base, signedIn: true, user: null }; // offline: still signed in
      throw error;
    }
  }

  /** After anything that may change who is signed in: re-points, then tells the app when the status changed. */
  async changed(): Promise<AuthStatus> {
    const before = this.#pointedAt;
    this.follow();
    if (before && before !== this.#pointedAt && !this.key())
      await this.parts.caches.removeUser(before).catch(() => undefined);
    const now = await this.status();
    const text = JSON.stringify(now);
    if (text !== this.#announced) {
      this.#announced = text;
      this.parts.events.emit('auth.changed', now);
    }
    return now;
  }

  /** The service no longer accepts the token (revoked, or its database was reset): signed out. */
  async #forget(profileId: string, acct: string): Promise<AuthStatus> {
    this.parts.auth.signOut(profileId);
    await this.parts.caches.removeUser(acct).catch(() => undefined);
    return this.changed();
  }

  #pending(): SignInPending | null {
    const pending = this.parts.auth.pending;
    return pending ? { loginUrl: pending.loginUrl, mode: pending.mode, browserOpened: pending.browserOpened } : null;
  }
}

function isRefusedToken(error: unknown): boolean {
  return error instanceof ServiceError && error.appError.kind === 'auth' && error.appError.status === 401;
}
