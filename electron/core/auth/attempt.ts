import type { Credentials, Transport } from '../types.ts';
import { accessToken, requestToken, signInPageUrl, type Http } from './endpoints.ts';
import { AuthError } from './errors.ts';
import { startLoopbackCallback, type LoopbackCallback } from './loopback-callback.ts';
import type { OAuthTokens, PendingSignIn, SignInMode, SignInOptions, SignInTarget, StartOptions } from './types.ts';

/** One sign-in attempt of SignIn (sign-in.ts, which describes the flow): its steps, its end. */

export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** How long openExternal may take before the browser counts as not opened (the PIN path then). */
const DEFAULT_OPEN_WAIT_MS = 5_000;
export const CANCELLED_MESSAGE = 'Sign-in cancelled.';

export interface AttemptHooks {
  ended(a: Attempt): void;
  ready(a: Attempt): void;
}

export class Attempt {
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
    private readonly transport: Transport,
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
      () =>
        this.fail(
          new AuthError(
            'timeout',
            `Sign-in timed out after ${formatDuration(timeoutMs)}: start again when you are ready.`,
          ),
        ),
      timeoutMs,
    );
    this.#timer.unref?.();
    if (start.signal?.aborted) queueMicrotask(this.#onAbort);
    else start.signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  get #http(): Http {
    return {
      transport: this.transport,
      signal: this.#abort.signal,
      requestTimeoutMs: this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
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

  #infoOf(
    mode: SignInMode,
    fellBack: boolean,
    browserOpened: boolean,
    page: { loginUrl: string; applicationName: string },
  ): PendingSignIn {
    return {
      mode,
      fellBack,
      browserOpened,
      loginUrl: page.loginUrl,
      callbackUrl: this.#listener?.url ?? null,
      applicationName: page.applicationName,
      expiresAt:
        (this.options.now ?? Date.now)() +
        (this.start.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS),
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
    return {
      loginUrl: signInPageUrl(this.target, rt.loginUrl, rt.applicationName),
      applicationName: rt.applicationName,
    };
  }

  /** True when openExternal opened a browser within the wait; false when it said no, threw or took too long. */
  async #openBrowser(url: string): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const tooLong = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.options.openWaitMs ?? DEFAULT_OPEN_WAIT_MS);
    });
    const open = Promise.resolve()
      .then(() => this.options.openExternal(url))
      .then(
        (answer) => answer !== false,
        () => false,
      );
    try {
      return await Promise.race([open, tooLong]);
    } finally {
      clearTimeout(timer);
    }
  }

  completeWithPin(pin: string): Promise<OAuthTokens> {
    const verifier = pin.trim();
    if (!verifier)
      return Promise.reject(new AuthError('rejected', 'Enter the PIN the sign-in page showed.', { kind: 'invalid' }));
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
        if (error instanceof AuthError && error.code === 'rejected')
          throw new AuthError('rejected', 'The service did not accept that PIN: check it and try again.', {
            status: error.status,
          });
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
    this.#reject(
      error instanceof AuthError
        ? error
        : new AuthError('network', `Sign-in failed: ${messageOf(error)}`, { cause: error }),
    );
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
