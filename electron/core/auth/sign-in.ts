import { createTransport } from '../transport/index.ts';
import { ServiceError, type Transport } from '../types.ts';
import { Attempt, CANCELLED_MESSAGE } from './attempt.ts';
import { AuthError } from './errors.ts';
import type { OAuthTokens, PendingSignIn, SignInOptions, SignInTarget, StartOptions } from './types.ts';

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

/** One sign-in at a time: a new start() cancels the one pending. */
export class SignIn {
  #current: Attempt | null = null;
  readonly #transport: Transport;

  constructor(private readonly options: SignInOptions) {
    this.#transport = options.transport ?? ownTransport(options);
  }

  get pending(): PendingSignIn | null {
    return this.#current?.info ? { ...this.#current.info } : null;
  }

  /** Resolves with the access token once the browser came back (or completeWithPin succeeded). */
  start(target: SignInTarget, start: StartOptions = {}): Promise<OAuthTokens> {
    this.cancel('A new sign-in was started');
    const attempt = new Attempt(this.options, this.#transport, target, start, {
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

/** A sign-in without the core's transport (tests, a custom host) signs through one of its own. */
function ownTransport(options: SignInOptions): Transport {
  return createTransport({
    getContext: () => {
      throw new ServiceError({ kind: 'invalid', message: 'A sign-in signs for the profile it started with.' });
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
}
