/**
 * The auth room's door: the session the core keeps (sign-in, sign-out, the signing context of the
 * active profile) over the sign-in flow (sign-in.ts, one attempt in attempt.ts), the token calls it
 * makes (endpoints.ts), the loopback listener and the errors. Other rooms import only this file.
 */
export { AuthSession } from './session.ts';
export { SignIn } from './sign-in.ts';
export { CANCELLED_MESSAGE, DEFAULT_SIGN_IN_TIMEOUT_MS } from './attempt.ts';
export { parseForm } from './endpoints.ts';
export { AuthError, authErrorFromResponse, type AuthErrorCode } from './errors.ts';
export {
  startLoopbackCallback,
  type CallbackResult,
  type LoopbackCallback,
  type LoopbackOptions,
} from './loopback-callback.ts';
export type {
  OAuthTokens,
  PendingSignIn,
  RequestTokenResult,
  SignInMode,
  SignInOptions,
  SignInTarget,
  StartOptions,
} from './types.ts';
