import type { ServiceProfile } from '../../../shared/models.ts';
import type { StoredTokens } from '../settings/index.ts';
import type { Transport } from '../types.ts';

/** The sign-in's types, below everything of auth/ that uses them (the session, the flow, one attempt, the token calls). */

/** What a sign-in ends with: the access token, its secret and the subscriber's id. */
export type OAuthTokens = StoredTokens;

/** What a sign-in needs of a profile. */
export type SignInTarget = Pick<ServiceProfile, 'baseUrl' | 'consumerKey' | 'consumerSecret'>;

export interface RequestTokenResult {
  token: string;
  secret: string;
  applicationName: string;
  loginUrl: string;
}

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
  /**
   * What the token calls go through: the core's transport (one signing path, one clock). Default: a
   * transport of the sign-in's own, over `fetch` and `now`.
   */
  transport?: Transport;
  /** Default 127.0.0.1. */
  loopbackHost?: string;
  /** Default 0 (any free port). */
  loopbackPort?: number;
  /** The own transport's fetch (no `transport` given). */
  fetch?: typeof fetch;
  /**
   * Wall clock in ms (default Date.now): when a sign-in expires, and the own transport's clock (no
   * `transport` given), corrected from /oauth/clock/time when the service says it is off.
   */
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
