import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { resource } from '../http/route.ts';
import type { Params } from '../http/params.ts';
import { authorizedPage, signInPage, tokenErrorPage, type DemoAccount, type SignInFields } from '../oauth/sign-in-html.ts';
import { findConsumer } from '../store/consumers.ts';
import { approveRequestToken, findLiveRequestToken, type RequestToken } from '../store/request-tokens.ts';
import { acceptTerms, authenticateUser } from '../store/users.ts';
import { isCallbackUrl } from './oauth-tokens.ts';

const BAD_TOKEN = 'Expired or bad request token';

/**
 * `/oauth/login`: the subscriber signs in on the service's own page and approves the application.
 * Failures re-show the form (200) with the reason in `<p id="error">`; success redirects to the
 * callback with `oauth_token` and `oauth_verifier`, or shows the verifier as a PIN.
 */
export function registerSignIn(app: FastifyInstance, svc: ServiceContext, demo?: DemoAccount): void {
  const action = `${svc.baseUrl}/oauth/login`;
  resource(app, svc, '/oauth/login', {
    GET: {
      auth: 'none',
      handler: async (_req, reply, ctx) => {
        const { token, fields } = await pendingToken(svc, ctx.params);
        if (!token) return html(reply, tokenErrorPage(BAD_TOKEN));
        return html(reply, signInPage(action, fields, { askTerms: true, demo }), callbackSource(fields, token));
      },
    },
    POST: {
      auth: 'none',
      handler: async (_req, reply, ctx) => {
        const { token, fields } = await pendingToken(svc, ctx.params);
        if (!token) return html(reply, tokenErrorPage(BAD_TOKEN));
        const login = ctx.params.get('login') ?? '';
        const user = await authenticateUser(svc.db, login, ctx.params.get('password') ?? '');
        if (!user) return html(reply, signInPage(action, fields, { askTerms: true, login, error: 'Authorization failed', demo }), callbackSource(fields, token));
        const accepted = ['checked', 'true', 'on', '1'].includes((ctx.params.get('accept_tos') ?? '').toLowerCase());
        if (!user.accepted_tos && !accepted) {
          return html(reply, signInPage(action, fields, { askTerms: true, login, error: 'User must accept terms of use.', demo }), callbackSource(fields, token));
        }
        if (!user.accepted_tos) await acceptTerms(svc.db, user.id);
        const verifier = await approveRequestToken(svc.db, token.token, user.id);
        const callback = callbackOf(fields, token);
        if (callback) {
          const target = new URL(callback);
          target.searchParams.set('oauth_token', token.token);
          target.searchParams.set('oauth_verifier', verifier);
          return reply.code(302).header('location', target.toString()).type('text/html; charset=utf-8').send(`<a href="${target}">Continue</a>`);
        }
        return html(reply, authorizedPage(fields.application_name, verifier));
      },
    },
  });
}

async function pendingToken(svc: ServiceContext, params: Params): Promise<{ token: RequestToken | undefined; fields: SignInFields }> {
  const token = await findLiveRequestToken(svc.db, params.get('oauth_token') ?? '', svc.now());
  const consumerKey = params.get('oauth_consumer_key') ?? '';
  // A consumer key on the page must be the token's own.
  const valid = token && (consumerKey === '' || consumerKey === token.consumer_key) ? token : undefined;
  const consumer = valid ? await findConsumer(svc.db, valid.consumer_key) : undefined;
  return {
    token: valid,
    fields: {
      oauth_token: params.get('oauth_token') ?? '',
      oauth_consumer_key: consumerKey,
      application_name: consumer?.name ?? params.get('application_name') ?? '',
      oauth_callback: params.get('oauth_callback') ?? '',
    },
  };
}

/** The page's callback wins; an empty oauth_callback= means none; then the one given at request-token time. */
function callbackOf(fields: SignInFields, token: RequestToken): string | null {
  const callback = fields.oauth_callback !== '' ? fields.oauth_callback : token.callback;
  return callback && callback !== 'oob' && isCallbackUrl(callback) ? callback : null;
}

/**
 * Browsers apply the form's `form-action` to the redirect after the post too, so the callback the
 * form will end at must be allowed beside 'self' (its origin, or its scheme for an app's own).
 */
function callbackSource(fields: SignInFields, token: RequestToken): string {
  const callback = callbackOf(fields, token);
  if (!callback) return '';
  const url = new URL(callback);
  return url.protocol === 'http:' || url.protocol === 'https:' ? ` ${url.origin}` : ` ${url.protocol}`;
}

function html(reply: FastifyReply, body: string, formTargets = ''): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${formTargets}; frame-ancestors 'none'`)
    .header('cache-control', 'no-store')
    .send(body);
}
