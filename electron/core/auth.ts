import type { AppError, ErrorKind, ServiceProfile } from '../../shared/models.ts';
import { startLoopbackCallback, type LoopbackCallback } from './loopback-callback.ts';
import type { SettingsStore, StoredTokens } from './settings-core.ts';
import { sign } from './signer.ts';
import { ServiceError, type Credentials, type SigningContext } from './types.ts';

/**
 * Signing in to a service as RFC 8252 asks of native apps (CONTRACT.md §5):
 *
 * 1. a one-shot listener on `http://127.0.0.1:<random port>/<random path>` (loopback-callback.ts);
 * 2. a request token with that URL as `oauth_callback`;
 * 3. the service's `login_url` (plus `oauth_consumer_key` and `application_name`) opened in the
 *    system browser by the injected `openExternal`: the subscriber signs in on the SERVICE's page;
 *    the app never sees, asks for or stores their password;
 * 4. the service redirects the browser to the listener with `oauth_token` and `oauth_verifier`;
 *    only a callback carrying the pending request token counts;
 * 5. the verifier is exchanged for an access token: { token, secret, userId }.
 *
 * When the listener cannot bind (or `mode: 'oob'` is asked for), the request token asks for
 * `oauth_callback=oob`: the page then shows the verifier as a PIN, which the user types into the app
 * (`completeWithPin`). Everything is bounded by a timeout (default 5 minutes): the listener closes,
 * the pending state is cleared and the promise rejects with an AuthError ('timeout').
 */

export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export type OAuthTokens = StoredTokens;

/** What a sign-in needs of a profile. */
export type SignInTarget = Pick<ServiceProfile, 'baseUrl' | 'consumerKey' | 'consumerSecret'>;

export type SignInMode = 'loopback' | 'oob';

export type AuthErrorCode =
  /** The browser did not come back (or no PIN was entered) in time. */
  | 'timeout'
  /** cancel(), a new sign-in, sign-out or the caller's AbortSignal. */
  | 'cancelled'
  /** The service refused (401/403): bad consumer credentials, an expired token, a wrong PIN. */
  | 'rejected'
  /** Another error status from the service (quota, 5xx, 400…). */
  | 'service'
  /** The service could not be reached. */
  | 'network'
  /** The service answered something that is not what CONTRACT.md §5 says. */
  | 'bad_response'
  /** openExternal failed. */
  | 'browser'
  /** completeWithPin with no PIN sign-in waiting. */
  | 'no_pending'
  /** No active profile to sign in to. */
  | 'no_profile';

/** A failed sign-in; a ServiceError, so its `appError` is what the renderer gets. */
export class AuthError extends ServiceError {
  constructor(
    readonly code: AuthErrorCode,
    message: string,
    extra: { kind?: ErrorKind; status?: number; subCode?: number; retryAfter?: number; cause?: unknown } = {},
  ) {
    const appError: AppError = { kind: extra.kind ?? KIND[code], message };
    if (extra.status !== undefined) appError.status = extra.status;
    if (extra.subCode !== undefined) appError.subCode = extra.subCode;
    if (extra.retryAfter !== undefined) appError.retryAfter = extra.retryAfter;
    super(appError);
    this.name = 'AuthError';
    if (extra.cause !== undefined) (this as { cause?: unknown }).cause = extra.cause;
  }

  get status(): number | undefined {
    return this.appError.status;
  }
}

const KIND: Record<AuthErrorCode, ErrorKind> = {
  timeout: 'auth',
  cancelled: 'auth',
  rejected: 'auth',
  service: 'server',
  network: 'offline',
  bad_response: 'server',
  browser: 'auth',
  no_pending: 'invalid',
  no_profile: 'invalid',
};

/** What the UI shows while a sign-in waits for the browser or a PIN. */
export interface PendingSignIn {
  mode: SignInMode;
  /** True when a loopback sign-in fell back to the PIN because the listener could not bind. */
  fellBack: boolean;
  /** The page opened in the browser (show it as a link too, in case the browser did not open). */
  loginUrl: string;
  /** The loopback callback (loopback mode), else null. */
  callbackUrl: string | null;
  applicationName: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface SignInOptions {
  /** Opens a URL in the system browser (Electron's shell.openExternal; `open`/`xdg-open` or printing in the web host). */
  openExternal: (url: string) => Promise<void> | void;
  /** Default 5 minutes, from start() to the access token. */
  timeoutMs?: number;
  /** Per HTTP call; default 30 s. */
  requestTimeoutMs?: number;
  /** Default 127.0.0.1. */
  loopbackHost?: string;
  /** Default 0 (any free port). */
  loopbackPort?: number;
  fetch?: typeof fetch;
  /** Wall clock in ms (default Date.now); the timestamp is corrected from /oauth/clock/time when the service says it is off. */
  now?: () => number;
  /** Told when a sign-in starts waiting for the browser or a PIN, and (null) when it ends. */
  onPending?: (pending: PendingSignIn | null) => void;
}

export interface StartOptions {
  /** Default 'loopback' (which falls back to 'oob' when it cannot listen). */
  mode?: SignInMode;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** One sign-in at a time: a new start() cancels the one pending. */
export class SignIn {
  #current: Attempt | null = null;
  #clockOffset = 0;

  constructor(private readonly options: SignInOptions) {}

  get pending(): PendingSignIn | null {
    return this.#current?.info ? { ...this.#current.info } : null;
  }

  /** Resolves with the access token once the browser came back (or completeWithPin succeeded). */
  start(target: SignInTarget, start: StartOptions = {}): Promise<OAuthTokens> {
    this.cancel('A new sign-in was started');
    const attempt = new Attempt(this.options, target, start, {
      clock: () => this.#clockOffset,
      setClock: (offset) => (this.#clockOffset = offset),
      ended: (a) => {
        if (this.#current === a) {
          this.#current = null;
          if (a.info) this.options.onPending?.(null);
        }
      },
      ready: (a) => {
        if (this.#current === a && a.info) this.options.onPending?.({ ...a.info });
      },
    });
    this.#current = attempt;
    attempt.run();
    return attempt.promise;
  }

  /** The PIN the page showed (oob). A wrong PIN rejects but keeps the sign-in pending for another try. */
  completeWithPin(pin: string): Promise<OAuthTokens> {
    const attempt = this.#current;
    if (!attempt?.info || attempt.info.mode !== 'oob') {
      return Promise.reject(new AuthError('no_pending', 'No sign-in is waiting for a PIN: start signing in again.'));
    }
    return attempt.completeWithPin(pin);
  }

  /** Ends the pending sign-in, if any; its promise rejects with AuthError 'cancelled'. */
  cancel(reason = 'Sign-in was cancelled'): void {
    this.#current?.fail(new AuthError('cancelled', reason));
  }
}

interface AttemptHooks {
  clock(): number;
  setClock(offset: number): void;
  ended(a: Attempt): void;
  ready(a: Attempt): void;
}

class Attempt {
  info: PendingSignIn | null = null;
  readonly promise: Promise<OAuthTokens>;
  #resolve!: (t: OAuthTokens) => void;
  #reject!: (e: unknown) => void;
  #settled = false;
  #listener: LoopbackCallback | null = null;
  #requestToken: Credentials | null = null;
  #exchanging: Promise<OAuthTokens> | null = null;
  readonly #abort = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #onAbort = () => this.fail(new AuthError('cancelled', 'Sign-in was cancelled'));

  constructor(
    private readonly options: SignInOptions,
    private readonly target: SignInTarget,
    private readonly start: StartOptions,
    private readonly hooks: AttemptHooks,
  ) {
    this.promise = new Promise<OAuthTokens>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    const timeoutMs = start.timeoutMs ?? options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
    this.#timer = setTimeout(
      () => this.fail(new AuthError('timeout', `Sign-in timed out after ${formatDuration(timeoutMs)}: start again when you are ready.`)),
      timeoutMs,
    );
    this.#timer.unref?.();
    if (start.signal?.aborted) queueMicrotask(this.#onAbort);
    else start.signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  get #http(): Http {
    return {
      fetch: this.options.fetch ?? fetch,
      signal: this.#abort.signal,
      requestTimeoutMs: this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      now: this.options.now ?? Date.now,
      clock: this.hooks.clock,
      setClock: this.hooks.setClock,
    };
  }

  run(): void {
    this.#run().catch((error: unknown) => this.fail(error));
  }

  async #run(): Promise<void> {
    let mode: SignInMode = this.start.mode ?? 'loopback';
    let fellBack = false;
    if (mode === 'loopback') {
      try {
        this.#listener = await startLoopbackCallback({ host: this.options.loopbackHost, port: this.options.loopbackPort });
      } catch {
        mode = 'oob'; // cannot listen (port taken, no loopback interface, sandbox): the PIN still works
        fellBack = true;
      }
      if (this.#settled) return void this.#listener?.close();
    }

    const rt = await requestToken(this.target, this.#listener?.url ?? 'oob', this.#http);
    if (this.#settled) return;
    this.#requestToken = { key: rt.token, secret: rt.secret };
    const loginUrl = signInPageUrl(this.target, rt.loginUrl, rt.applicationName);
    this.#listener?.expect(rt.token);

    this.info = {
      mode,
      fellBack,
      loginUrl,
      callbackUrl: this.#listener?.url ?? null,
      applicationName: rt.applicationName,
      expiresAt: (this.options.now ?? Date.now)() + (this.start.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS),
    };
    this.hooks.ready(this);

    Promise.resolve()
      .then(() => this.options.openExternal(loginUrl))
      .catch((error: unknown) => this.fail(new AuthError('browser', `Could not open the sign-in page in the browser: ${messageOf(error)}`, { cause: error })));

    if (this.#listener) {
      const { verifier } = await this.#listener.result;
      if (this.#settled) return;
      void this.#listener.close();
      this.succeed(await this.#exchange(verifier));
    }
    // oob: completeWithPin() finishes.
  }

  completeWithPin(pin: string): Promise<OAuthTokens> {
    const verifier = pin.trim();
    if (!verifier) return Promise.reject(new AuthError('rejected', 'Enter the PIN the sign-in page showed.', { kind: 'invalid' }));
    if (this.#exchanging) return this.#exchanging; // a double submit
    const exchanging = this.#exchange(verifier).then(
      (tokens) => {
        this.succeed(tokens);
        return tokens;
      },
      (error: unknown) => {
        // A mistyped PIN: the request token is still good, the user may try again until the timeout.
        if (this.#exchanging === exchanging) this.#exchanging = null;
        if (error instanceof AuthError && error.code === 'cancelled') throw error;
        if (error instanceof AuthError && error.code === 'rejected') throw new AuthError('rejected', 'The service did not accept that PIN: check it and try again.', { status: error.status });
        throw error;
      },
    );
    this.#exchanging = exchanging;
    return exchanging;
  }

  async #exchange(verifier: string): Promise<OAuthTokens> {
    if (this.#settled || !this.#requestToken) throw new AuthError('cancelled', 'Sign-in was cancelled');
    return accessToken(this.target, this.#requestToken, verifier, this.#http);
  }

  succeed(tokens: OAuthTokens): void {
    if (this.#settled) return;
    this.#end();
    this.#resolve(tokens);
  }

  fail(error: unknown): void {
    if (this.#settled) return;
    this.#end();
    this.#reject(error instanceof AuthError ? error : new AuthError('network', `Sign-in failed: ${messageOf(error)}`, { cause: error }));
  }

  #end(): void {
    this.#settled = true;
    clearTimeout(this.#timer);
    this.start.signal?.removeEventListener('abort', this.#onAbort);
    this.#abort.abort();
    void this.#listener?.close();
    this.#requestToken = null;
    this.hooks.ended(this);
  }
}

// ---------------------------------------------------------------------------------------------
// The token endpoints

interface Http {
  fetch: typeof fetch;
  signal: AbortSignal;
  requestTimeoutMs: number;
  now: () => number;
  clock: () => number;
  setClock: (offset: number) => void;
}

export interface RequestTokenResult {
  token: string;
  secret: string;
  applicationName: string;
  loginUrl: string;
}

/** POST /oauth/request_token, consumer-signed, with `oauth_callback` (a URL or 'oob'). */
async function requestToken(target: SignInTarget, callback: string, http: Http): Promise<RequestTokenResult> {
  const fields = await tokenCall(target, '/oauth/request_token', null, { oauth_callback: callback }, http);
  const token = fields.get('oauth_token');
  const secret = fields.get('oauth_token_secret');
  const loginUrl = fields.get('login_url');
  if (!token || !secret || !loginUrl) throw new AuthError('bad_response', 'The service answered the request-token call without a token or sign-in URL.');
  // OAuth 1.0a: the service must confirm it registered our callback, or it would not call it back.
  if (fields.get('oauth_callback_confirmed') !== 'true') throw new AuthError('bad_response', 'The service did not confirm the sign-in callback (not OAuth 1.0a).');
  return { token, secret, loginUrl, applicationName: fields.get('application_name') ?? '' };
}

/** POST /oauth/access_token, signed with the request token, with `oauth_verifier`. */
async function accessToken(target: SignInTarget, requestToken: Credentials, verifier: string, http: Http): Promise<OAuthTokens> {
  const fields = await tokenCall(target, '/oauth/access_token', requestToken, { oauth_verifier: verifier }, http);
  const token = fields.get('oauth_token');
  const secret = fields.get('oauth_token_secret');
  const userId = fields.get('user_id');
  if (!token || !secret || !userId) throw new AuthError('bad_response', 'The service answered the access-token call without a token or user id.');
  return { token, secret, userId };
}

/**
 * One signed POST with the protocol parameters in the Authorization header and no body; the
 * answer parsed as a form. A 401 for the timestamp corrects the clock from /oauth/clock/time and
 * retries once.
 */
async function tokenCall(target: SignInTarget, path: string, token: Credentials | null, oauth: Record<string, string>, http: Http): Promise<URLSearchParams> {
  const url = joinUrl(target.baseUrl, path);
  const consumer = { key: target.consumerKey, secret: target.consumerSecret };
  for (let attempt = 0; ; attempt++) {
    const timestamp = Math.floor(http.now() / 1000) + http.clock();
    const { header } = sign({ method: 'POST', url, consumer, token, oauth, timestamp });
    const res = await send(http, url, { method: 'POST', headers: { authorization: header, accept: 'application/x-www-form-urlencoded, */*;q=0.5' } });
    if (res.status === 200) return parseForm(res.body);
    const error = authErrorFromResponse(res.status, res.body, res.headers);
    if (attempt === 0 && res.status === 401 && /timestamp/i.test(error.message) && (await syncClock(target, http))) continue;
    throw error;
  }
}

async function syncClock(target: SignInTarget, http: Http): Promise<boolean> {
  try {
    const url = new URL(joinUrl(target.baseUrl, '/oauth/clock/time'));
    url.searchParams.set('oauth_consumer_key', target.consumerKey);
    const res = await send(http, url.toString(), { method: 'GET' });
    const m = /<time>\s*(\d+)\s*<\/time>|"time"\s*:\s*"?(\d+)/.exec(res.body);
    const server = Number(m?.[1] ?? m?.[2]);
    if (res.status !== 200 || !Number.isFinite(server) || server <= 0) return false;
    http.setClock(server - Math.floor(http.now() / 1000));
    return true;
  } catch {
    return false;
  }
}

async function send(http: Http, url: string, init: RequestInit): Promise<{ status: number; body: string; headers: Headers }> {
  try {
    const res = await http.fetch(url, { ...init, redirect: 'error', signal: AbortSignal.any([http.signal, AbortSignal.timeout(http.requestTimeoutMs)]) });
    return { status: res.status, body: await res.text(), headers: res.headers };
  } catch (error) {
    if (http.signal.aborted) throw new AuthError('cancelled', 'Sign-in was cancelled');
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new AuthError('network', timedOut ? `The service at ${originOf(url)} did not answer in time.` : `Could not reach the service at ${originOf(url)}.`, { cause: error });
  }
}

/** A form-encoded answer (`+` is a space), as CONTRACT.md §5's token endpoints send. */
export function parseForm(body: string): URLSearchParams {
  return new URLSearchParams(body.trim());
}

/**
 * A failed token call as an AuthError: the status body's message (`<status><message>` in XML, or
 * its JSON form), 401 → 'rejected' (kind 'auth'), a 403 with Retry-After → quota, any other 403 →
 * 'rejected', other statuses → 'service'.
 */
export function authErrorFromResponse(status: number, body: string, headers?: Headers): AuthError {
  const parsed = parseStatusBody(body);
  const retry = Number(headers?.get('retry-after'));
  const retryAfter = Number.isFinite(retry) && retry >= 0 && headers?.has('retry-after') ? retry : undefined;
  const detail = parsed.message ?? `HTTP ${status}`;
  const base = { status, subCode: parsed.subCode, retryAfter };
  if (status === 401) return new AuthError('rejected', `The service refused the sign-in: ${detail}.`, base);
  if (retryAfter !== undefined && (status === 403 || status === 429 || status === 503)) {
    return new AuthError('service', `The service is over its request quota for this app: ${detail}.`, { ...base, kind: 'quota' });
  }
  if (status === 403) return new AuthError('rejected', `The service refused the sign-in: ${detail}.`, base);
  return new AuthError('service', `Sign-in failed: ${detail}.`, { ...base, kind: status >= 500 ? 'server' : 'invalid' });
}

function parseStatusBody(body: string): { message?: string; subCode?: number } {
  const xmlMessage = /<message>([\s\S]*?)<\/message>/.exec(body)?.[1];
  const xmlSub = /<sub_code>\s*(\d+)\s*<\/sub_code>/.exec(body)?.[1];
  if (xmlMessage !== undefined || xmlSub !== undefined) {
    return { message: xmlMessage !== undefined ? decodeXml(xmlMessage.trim()) : undefined, subCode: xmlSub !== undefined ? Number(xmlSub) : undefined };
  }
  try {
    const json = JSON.parse(body) as { status?: { message?: unknown; sub_code?: unknown } };
    const message = json.status?.message;
    const sub = Number(json.status?.sub_code);
    return { message: typeof message === 'string' ? message : undefined, subCode: Number.isFinite(sub) ? sub : undefined };
  } catch {
    return {};
  }
}

function decodeXml(text: string): string {
  return text.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi, (_, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[name!.toLowerCase() as 'amp'];
  });
}

/**
 * The page to open: the service's login_url, plus oauth_consumer_key and application_name. It must
 * be http(s) on the profile's own origin: never hand the system browser a file:, custom-scheme or
 * foreign URL from a response (the Electron shell refuses anything but this page too).
 */
function signInPageUrl(target: SignInTarget, loginUrl: string, applicationName: string): string {
  let url: URL;
  try {
    url = new URL(loginUrl);
  } catch {
    throw new AuthError('bad_response', 'The service sent an invalid sign-in URL.');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== new URL(target.baseUrl).origin || url.username || url.password) {
    throw new AuthError('bad_response', `The service sent a sign-in URL outside ${originOf(target.baseUrl)}; check the profile's base URL.`);
  }
  url.hash = '';
  url.searchParams.set('oauth_consumer_key', target.consumerKey);
  if (applicationName) url.searchParams.set('application_name', applicationName);
  return url.toString();
}

function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  if (ms >= 1000) return `${Math.round(ms / 1000)} seconds`;
  return `${ms} ms`;
}

// ---------------------------------------------------------------------------------------------
// The session: sign-in bound to the settings' active profile

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
