import type { ServiceProfile } from '../../../shared/models.ts';
import type { SettingsStore } from '../settings/index.ts';
import type { SigningContext } from '../types.ts';
import { AuthError } from './errors.ts';
import { SignIn } from './sign-in.ts';
import type { OAuthTokens, PendingSignIn, SignInOptions, StartOptions } from './types.ts';

/**
 * Sign-in, sign-out and the signing context of the active profile, with tokens kept (encrypted)
 * by the SettingsStore. A sign-in is for the profile active when it started; its tokens go to that
 * profile even if another becomes active meanwhile.
 */
export class AuthSession {
  readonly #signIn: SignIn;
  #pendingProfile: ServiceProfile | null = null;

  constructor(
    private readonly settings: SettingsStore,
    options: SignInOptions,
  ) {
    this.#signIn = new SignIn(options);
  }

  get pending(): PendingSignIn | null {
    return this.#signIn.pending;
  }

  /** The profile a pending sign-in is for. */
  get pendingProfileId(): string | null {
    return this.#signIn.pending ? (this.#pendingProfile?.id ?? null) : null;
  }

  /** AuthStatus.secureStorage. */
  get secureStorage(): boolean {
    return this.settings.secureStorage;
  }

  /** The stored tokens of a profile (default: the active one). */
  tokens(profileId: string | null = this.settings.getActiveProfileId()): OAuthTokens | null {
    return profileId === null ? null : this.settings.getTokens(profileId);
  }

  isSignedIn(profileId: string | null = this.settings.getActiveProfileId()): boolean {
    return this.tokens(profileId) !== null;
  }

  /** What the transport signs with for a profile (default: the active one); token null when signed out. */
  signingContext(profileId: string | null = this.settings.getActiveProfileId()): SigningContext | null {
    const profile = profileId === null ? null : this.settings.getProfile(profileId);
    if (!profile) return null;
    const tokens = this.settings.getTokens(profile.id);
    return {
      baseUrl: profile.baseUrl,
      consumer: { key: profile.consumerKey, secret: profile.consumerSecret },
      token: tokens ? { key: tokens.token, secret: tokens.secret } : null,
    };
  }

  /**
   * Signs in to the active profile (a new call cancels a pending one) and stores the tokens;
   * resolves once signed in: after the browser came back, or after completeWithPin.
   */
  async signIn(start: StartOptions = {}): Promise<OAuthTokens> {
    const profile = this.settings.getActiveProfile();
    if (!profile) throw new AuthError('no_profile', 'No service profile is active.');
    const pending = this.#signIn.start(profile, start);
    this.#pendingProfile = profile;
    const tokens = await pending;
    this.#store(profile, tokens);
    return tokens;
  }

  /** Finishes a PIN sign-in (the pending signIn() resolves too); tokens are stored when this resolves. */
  async completeWithPin(pin: string): Promise<OAuthTokens> {
    const profile = this.#pendingProfile;
    const tokens = await this.#signIn.completeWithPin(pin);
    if (profile) this.#store(profile, tokens);
    return tokens;
  }

  cancel(): void {
    this.#signIn.cancel();
  }

  /** Forgets the profile's tokens (default: the active one) and cancels a sign-in pending for it. */
  signOut(profileId: string | null = this.settings.getActiveProfileId()): void {
    if (profileId === null) return;
    if (this.pendingProfileId === profileId) this.#signIn.cancel('Signed out');
    this.settings.clearTokens(profileId);
  }

  #store(profile: ServiceProfile, tokens: OAuthTokens): void {
    const now = this.settings.getProfile(profile.id);
    if (!now || now.baseUrl !== profile.baseUrl || now.consumerKey !== profile.consumerKey) {
      throw new AuthError('cancelled', 'The service profile changed while signing in: sign in again.');
    }
    const stored = this.settings.getTokens(profile.id);
    if (stored?.token === tokens.token && stored.secret === tokens.secret) return;
    this.settings.setTokens(profile.id, tokens);
  }
}
