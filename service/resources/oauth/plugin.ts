import type { FastifyInstance } from 'fastify';
import type { DemoAccount } from '../../oauth/sign-in-html.ts';
import { registerClock } from './clock.ts';
import { registerSignIn } from './sign-in.ts';
import { registerOAuthTokens } from './tokens.ts';

export interface OAuthPluginOptions {
  /** Shown on the sign-in page under the form (a service started with `--demo`). */
  demoAccount?: DemoAccount | undefined;
}

/** OAuth's routes (request and access tokens, the sign-in page, the clock), encapsulated. */
export function oauthPlugin(app: FastifyInstance, options: OAuthPluginOptions, done: (err?: Error) => void): void {
  const svc = app.svc;
  registerOAuthTokens(app, svc);
  registerSignIn(app, svc, options.demoAccount);
  registerClock(app, svc);
  done();
}
