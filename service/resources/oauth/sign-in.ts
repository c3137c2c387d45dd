import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceContext } from '../../context.ts';
import { resource } from '../../http/route.ts';
import type { Params } from '../../http/params.ts';
import {
  authorizedPage,
  redirectPage,
  signInPage,
  tokenErrorPage,
  type DemoAccount,
  type SignInFields,
} from '../../oauth/sign-in-html.ts';
import { findConsumer } from '../../store/oauth/consumers.ts';
import type { Consumer } from '../../model/consumer.ts';
import {
  approveRequestToken,
  burnRequestToken,
  findLiveRequestToken,
  type RequestToken,
} from '../../store/oauth/request-tokens.ts';
import { acceptTerms, authenticateUser } from '../../store/subscriber/users.ts';
import { isCallbackUrl } from './tokens.ts';

const BAD_TOKEN = 'Expired or bad request token';
const ALREADY_APPROVED = 'This sign-in link was already used. Return to the application and start signing in again.';
const TOKEN_ENDED =
  'Too many wrong passwords for this sign-in link. Return to the application and start signing in again.';

/** A request token on the page, with its consumer. */
interface Pending {
  token: RequestToken;
  consumer: Consumer;
  fields: SignInFields;
}

/**
 * `/oauth/login`: the subscriber signs in on the service's own page and approves the application.
 * Failures re-show the form (200) with the reason in `<p id="error">`; success redirects to the
 * callback fixed with the request token, or shows the verifier as a PIN. Wrong passwords are
 * throttled per account and per token (`svc.signInThrottle`, oauth/login-throttle.ts).
 */
export function registerSignIn(app: FastifyInstance, svc: ServiceContext, demo?: DemoAccount): void {
  const action = `${svc.baseUrl}/oauth/login`;
  resource(app, svc, '/oauth/login', {
    GET: {
      auth: 'none',
      handler: async (_req, reply, ctx) => {
        const pending = await pendingToken(svc, ctx.params);
        if (!pending) return html(reply, tokenErrorPage(BAD_TOKEN));
        return html(reply, signInPage(action, pending.fields, { askTerms: true, demo }), callbackSource(pending));
      },
    },
    POST: {
      auth: 'none',
      handler: async (_req, reply, ctx) => {
        const pending = await pendingToken(svc, ctx.params);
        if (!pending) return html(reply, tokenErrorPage(BAD_TOKEN));
        const { token, fields } = pending;
        const login = ctx.params.get('login') ?? '';
        const form = (error: string) => signInPage(action, fields, { askTerms: true, login, error, demo });
        const wait = svc.signInThrottle.waitSeconds(login, svc.now());
        if (wait > 0) {
          reply.code(429).header('retry-after', String(wait));
          return html(
            reply,
            form(`Too many failed sign-in attempts for this account. Try again in ${wait} seconds.`),
            callbackSource(pending),
          );
        }
        const user = await authenticateUser(svc.db, login, ctx.params.get('password') ?? '');
        if (!user) {
          if (svc.signInThrottle.fail(login, token.token, svc.now())) {
            await burnRequestToken(svc.db, token.token);
            return html(reply, tokenErrorPage(TOKEN_ENDED));
          }
          return html(reply, form('Authorization failed'), callbackSource(pending));
        }
        svc.signInThrottle.succeed(login, token.token);
        const accepted = ['checked', 'true', 'on', '1'].includes((ctx.params.get('accept_tos') ?? '').toLowerCase());
        if (!user.accepted_tos && !accepted)
          return html(reply, form('User must accept terms of use.'), callbackSource(pending));
        if (!user.accepted_tos) await acceptTerms(svc.db, user.id);
        const verifier = await approveRequestToken(svc.db, token.token, user.id);
        if (!verifier) return html(reply, tokenErrorPage(ALREADY_APPROVED));
        const callback = callbackOf(pending);
        if (!callback) return html(reply, authorizedPage(fields.application_name, verifier));
        const target = new URL(callback);
        target.searchParams.set('oauth_token', token.token);
        target.searchParams.set('oauth_verifier', verifier);
        // The verifier is in the Location: no cache may keep this answer.
        return reply
          .code(302)
          .header('location', target.toString())
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(redirectPage(target.toString()));
      },
    },
  });
}

async function pendingToken(svc: ServiceContext, params: Params): Promise<Pending | undefined> {
  const token = await findLiveRequestToken(svc.db, params.get('oauth_token') ?? '', svc.now());
  const consumerKey = params.get('oauth_consumer_key') ?? '';
  // A consumer key on the page must be the token's own.
  if (!token || (consumerKey !== '' && consumerKey !== token.consumer_key)) return undefined;
  const consumer = await findConsumer(svc.db, token.consumer_key);
  if (!consumer) return undefined;
  return {
    token,
    consumer,
    fields: {
      oauth_token: token.token,
      oauth_consumer_key: consumerKey,
      // Always the registered name: the page must not let a link make the app look like another.
      application_name: consumer.name,
      oauth_callback: params.get('oauth_callback') ?? '',
    },
  };
}

/**
 * Where the verifier goes: only the callback fixed with the request token (OAuth 1.0a), so a
 * link cannot send it elsewhere. An OAuth 1.0 consumer that gave none may name one on the login
 * URL, as the historical service allowed, but only within the origin it registered; else the PIN.
 */
export function callbackOf({ token, consumer, fields }: Pending): string | null {
  if (token.callback !== null) return token.callback !== 'oob' && isCallbackUrl(token.callback) ? token.callback : null;
  const named = fields.oauth_callback;
  if (!consumer.legacy || !consumer.callback_origin || named === '' || !isCallbackUrl(named)) return null;
  return originOf(named) === consumer.callback_origin ? named : null;
}

export function originOf(url: string): string {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : parsed.protocol;
}

/**
 * Browsers apply the form's `form-action` to the redirect after the post too, so the callback the
 * form will end at must be allowed beside 'self' (its origin, or its scheme for an app's own).
 */
function callbackSource(pending: Pending): string {
  const callback = callbackOf(pending);
  return callback ? ` ${originOf(callback)}` : '';
}

function html(reply: FastifyReply, body: string, formTargets = ''): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('x-frame-options', 'DENY')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${formTargets}; frame-ancestors 'none'`,
    )
    .header('cache-control', 'no-store')
    .send(body);
}
