import { accessToken, requestToken, signInPageUrl, type Http, type OAuthTokens, type SignInTarget } from './auth-endpoints.ts';
import { AuthError } from './auth-errors.ts';
import { startLoopbackCallback, type LoopbackCallback } from './loopback-callback.ts';
import type { Credentials } from './types.ts';

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
 * When the listener cannot bind, no browser could be opened (`openExternal` answered false, threw,
 * or did not answer in time), or `mode: 'oob'` is asked for, the request token asks for
 * `oauth_callback=oob`: the page then shows the verifier as a PIN, which the user types into the app
 * (`completeWithPin`), so whoever opens the link, on this computer or another, can finish. The
 * pending state (the link, the mode, whether a browser opened) is announced once the page is ready.
 * Everything is bounded by a timeout (default 5 minutes): the listener closes, the pending state is
 * cleared and the promise rejects with an AuthError ('timeout').
 */

export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** How long openExternal may take before the browser counts as not opened (the PIN path then). */
const DEFAULT_OPEN_WAIT_MS = 5_000;
export const CANCELLED_MESSAGE = 'Sign-in cancelled.';

export type SignInMode = 'loopback' | 'oob';

/** What the UI shows while a sign-in waits for the browser or a PIN. */
export interface PendingSignIn {
  mode: SignInMode;
  /** True when a loopback sign-in fell back to the PIN (no listener, or no browser opened). */
  fellBack: boolean;
  /** False when no browser could be opened: the user opens `loginUrl` themselves. */
  browserOpened: boolean;
  /** The page opened in the browser (show it as a link too, in case the browser did not open). */
  loginUrl: string;
  /** The loopback callback (loopback mode), else null. */
  callbackUrl: string | null;
  applicationName: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface SignInOptions {
  /**
   * Opens a URL in the system browser (Electron's shell.openExternal; `open`/`xdg-open` in the web
   * host). Answers false (or throws) when no browser was opened.
   */
  openExternal: (url: string) => Promise<boolean | void> | boolean | void;
  /** How long openExternal may take before the sign-in goes on with a PIN; default 5 s. */
  openWaitMs?: number;
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
  cancel(reason = CANCELLED_MESSAGE): void {
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
  readonly #onAbort = () => this.fail(new AuthError('cancelled', CANCELLED_MESSAGE));

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
      this.#listener = await this.#listen();
      if (this.#settled) return void this.#listener?.close();
      if (!this.#listener) [mode, fellBack] = ['oob', true];
    }

    let page = await this.#requestPage();
    if (this.#settled) return;
    this.info = this.#infoOf(mode, fellBack, false, page); // visible (not yet announced) while the browser opens
    const browserOpened = await this.#openBrowser(page.loginUrl);
    if (this.#settled) return;
    if (!browserOpened && mode === 'loopback') {
      // Nobody on this computer will follow the callback: whoever opens the link gets a PIN.
      void this.#listener?.close();
      this.#listener = null;
      [mode, fellBack] = ['oob', true];
      page = await this.#requestPage();
      if (this.#settled) return;
    }
    this.info = this.#infoOf(mode, fellBack, browserOpened, page);
    this.hooks.ready(this);

    if (this.#listener) {
      const { verifier } = await this.#listener.result;
      if (this.#settled) return;
      void this.#listener.close();
      this.succeed(await this.#exchange(verifier));
    }
    // oob: completeWithPin() finishes.
  }

  #infoOf(mode: SignInMode, fellBack: boolean, browserOpened: boolean, page: { loginUrl: string; applicationName: string }): PendingSignIn {
    return {
      mode,
      fellBack,
      browserOpened,
      loginUrl: page.loginUrl,
      callbackUrl: this.#listener?.url ?? null,
      applicationName: page.applicationName,
      expiresAt: (this.options.now ?? Date.now)() + (this.start.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS),
    };
  }

  /** The loopback listener, or null when it cannot listen (port taken, no loopback interface, sandbox). */
  async #listen(): Promise<LoopbackCallback | null> {
    try {
      return await startLoopbackCallback({ host: this.options.loopbackHost, port: this.options.loopbackPort });
    } catch {
      return null;
    }
  }

  /** A request token for the listener's callback (or `oob`) and the sign-in page that approves it. */
  async #requestPage(): Promise<{ loginUrl: string; applicationName: string }> {
    const rt = await requestToken(this.target, this.#listener?.url ?? 'oob', this.#http);
    this.#requestToken = { key: rt.token, secret: rt.secret };
    this.#listener?.expect(rt.token);
    return { loginUrl: signInPageUrl(this.target, rt.loginUrl, rt.applicationName), applicationName: rt.applicationName };
  }

  /** True when openExternal opened a browser within the wait; false when it said no, threw or took too long. */
  async #openBrowser(url: string): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const tooLong = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.options.openWaitMs ?? DEFAULT_OPEN_WAIT_MS);
    });
    const open = Promise.resolve()
      .then(() => this.options.openExternal(url))
      .then((answer) => answer !== false, () => false);
    try {
      return await Promise.race([open, tooLong]);
    } finally {
      clearTimeout(timer);
    }
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  if (ms >= 1000) return `${Math.round(ms / 1000)} seconds`;
  return `${ms} ms`;
}
