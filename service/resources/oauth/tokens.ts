import type { FastifyInstance, FastifyReply } from 'fastify';
import { Message } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { signedRequestOf } from '../../http/auth.ts';
import { ApiError } from '../../model/api-error.ts';
import { resource, type Operation } from '../../http/route.ts';
import { collectOAuthParams } from '../../oauth/params.ts';
import { consumeRequestToken, createRequestToken, findLiveRequestToken } from '../../store/oauth/request-tokens.ts';
import { issueAccessToken, revokeAccessToken } from '../../store/oauth/tokens.ts';
import { sendStatus } from '../../http/status.ts';

/**
 * The token endpoints of OAuth 1.0a (CONTRACT.md §5), verified and charged to the quota by the
 * route like any request: a request token for a consumer-signed request, then, once the subscriber approved it on the sign-in page, an access token for a
 * request signed with the request token and carrying its verifier.
 */
export function registerOAuthTokens(app: FastifyInstance, svc: ServiceContext): void {
  const requestToken: Operation = {
    auth: 'signed',
    handler: async (req, reply, ctx) => {
      const { consumer } = ctx.auth!;
      const callback = collectOAuthParams(signedRequestOf(req)).oauth.get('oauth_callback') ?? null;
      if (callback !== null && callback !== 'oob' && !isCallbackUrl(callback)) throw ApiError.invalid('oauth_callback');
      const token = await createRequestToken(svc.db, consumer.key, callback, svc.now());
      const login = new URL(`${svc.baseUrl}/oauth/login`);
      login.searchParams.set('oauth_token', token.token);
      const fields: Array<[string, string]> = [
        ['oauth_token', token.token],
        ['oauth_token_secret', token.secret],
        // An OAuth 1.0 client (no oauth_callback) may reject unknown oauth_* keys.
        ...(callback !== null ? [['oauth_callback_confirmed', 'true'] as [string, string]] : []),
        ['application_name', consumer.name],
        ['login_url', login.toString()],
      ];
      return sendForm(reply, fields);
    },
  };

  const accessToken: Operation = {
    auth: 'request-token',
    handler: async (req, reply, ctx) => {
      const { consumer, token } = ctx.auth!;
      const pending = await findLiveRequestToken(svc.db, token?.token ?? '', svc.now());
      if (!pending || !pending.user_id) throw ApiError.unauthorized(Message.invalidToken);
      const verifier = collectOAuthParams(signedRequestOf(req)).oauth.get('oauth_verifier');
      // Legacy (OAuth 1.0) consumers may skip the verifier once the token was approved; nobody else may.
      const verifierOk = verifier !== undefined ? verifier === pending.verifier : consumer.legacy === 1;
      if (!verifierOk) throw ApiError.unauthorized(Message.invalidToken);
      if (!(await consumeRequestToken(svc.db, pending.token))) throw ApiError.unauthorized(Message.invalidToken);
      const access = await issueAccessToken(svc.db, consumer.key, pending.user_id);
      return sendForm(reply, [
        ['oauth_token', access.token],
        ['oauth_token_secret', access.secret],
        ['user_id', access.user_id],
      ]);
    },
  };

  // Extension (docs/API.md): the app's sign-out ends its access token on the service too.
  const revoke: Operation = {
    auth: 'protected',
    handler: async (req, reply, ctx) => {
      await revokeAccessToken(svc.db, ctx.auth!.token!.token);
      return sendStatus(req, reply, 200, TOKEN_REVOKED);
    },
  };

  resource(app, svc, '/oauth/request_token', { GET: requestToken, POST: requestToken });
  resource(app, svc, '/oauth/revoke', { POST: revoke });
  resource(app, svc, '/oauth/access_token', { GET: accessToken, POST: accessToken });
}

export const TOKEN_REVOKED = 'Token revoked';

/** Form-encoded, `+` for spaces (clients decode it so), no trailing newline. */
function sendForm(reply: FastifyReply, fields: Array<[string, string]>): FastifyReply {
  return reply.type('application/x-www-form-urlencoded; charset=utf-8').send(new URLSearchParams(fields).toString());
}

/** An absolute URL; apps used custom schemes (`myapp://done`), but never script or file URLs. */
export function isCallbackUrl(value: string): boolean {
  try {
    return !['javascript:', 'data:', 'vbscript:', 'file:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
