import { Message } from '../../shared/protocol/status.ts';
import type { Admission, Charge, NonceClaim } from '../model/admission.ts';
import { ApiError } from '../model/api-error.ts';
import type { Consumer } from '../model/consumer.ts';
import type { User } from '../model/user.ts';
import { collectOAuthParams, type SignedRequest } from './params.ts';
import { baseStringUri, HMAC_SHA1, hmacSha1, signatureBaseString, signaturesEqual } from './signature.ts';

/**
 * CONTRACT §5's three levels: `key` = consumer key only, nothing signed; `signed` = consumer key
 * and signature (a token, if sent, must be valid and its secret signs too); `protected` =
 * consumer, access token and signature.
 */
export type AuthLevel = 'key' | 'signed' | 'protected';

export interface AuthContext {
  consumer: Consumer;
  /** `user`: the subscriber's row when the token lookup read it too (access tokens: one read for both). */
  token?: { token: string; userId: string; user?: User };
  /** The quota charge made with the nonce claim (signed requests), for http/quota.ts to judge. */
  charge?: Charge;
}

/** A token's credentials as the verifier needs them; userId is "" for a token not yet bound to a user. */
export interface TokenCredentials {
  secret: string;
  consumerKey: string;
  userId: string;
  user?: User;
}

/** Where token secrets come from: the token endpoints pass one that reads request tokens. */
export type TokenSecretLookup = (token: string) => Promise<TokenCredentials | null>;

/** What verification reads and claims; http/auth.ts wires it to the store. */
export interface VerifierStore {
  /** The consumer with this key, or undefined (read through a short-lived cache). */
  consumer(key: string): Promise<Consumer | undefined>;
  /** The default token lookup: access tokens that exist and are not revoked. */
  accessTokens: TokenSecretLookup;
  /** Claims the nonce and, when it is new, charges the request to the consumer's quota (the guard). */
  admit(claim: NonceClaim, consumer: Consumer, now: number): Promise<Admission>;
}

export interface VerifyOptions {
  /** The clock, in Unix seconds. */
  now?: () => number;
  /** Defaults to the access-token table (live tokens only). */
  tokenSecretLookup?: TokenSecretLookup;
}

/** Timestamps further than this from the service's clock are refused (CONTRACT §5). */
export const TIMESTAMP_WINDOW_SECONDS = 300;

/**
 * Authenticates a request at `level` or throws the contract's ApiError. The nonce is claimed only
 * once everything else checked out, so a forged or stale request cannot burn a client's nonce.
 * Consumers are read through a short-lived cache (store/oauth/consumer-cache.ts: a revocation made
 * elsewhere takes effect within CONSUMER_TTL_MS).
 */
export async function verifyRequest(
  store: VerifierStore,
  req: SignedRequest,
  level: AuthLevel,
  options: VerifyOptions = {},
): Promise<AuthContext> {
  const params = collectOAuthParams(req);
  const oauth = params.oauth;

  const consumerKey = oauth.get('oauth_consumer_key');
  if (!consumerKey) throw ApiError.unauthorized(Message.missingConsumerKey);
  if (params.conflicts.length > 0) throw ApiError.unauthorized(Message.invalidSignature);

  const consumer = await store.consumer(consumerKey);
  // The contract has no "unknown consumer" message; a key we cannot sign for is a bad signature.
  if (!consumer || consumer.revoked) throw ApiError.unauthorized(Message.invalidSignature);
  if (level === 'key') return { consumer };

  // Some clients send an empty oauth_token on token-less requests: that is no token.
  const token = oauth.get('oauth_token') || undefined;
  if (level === 'protected' && !token) throw new ApiError(400, Message.missingAccessToken);

  if (oauth.get('oauth_signature_method') !== HMAC_SHA1) throw ApiError.unauthorized(Message.invalidSignature);
  // A base64 signature has no spaces: one sent unescaped in a query had its "+" form-decoded.
  const signature = (oauth.get('oauth_signature') ?? '').replace(/ /g, '+');
  if (!signature) throw ApiError.unauthorized(Message.invalidSignature);
  // oauth_version is not checked: some 1.0a-era clients send "1.0a".

  const timestamp = parseTimestamp(oauth.get('oauth_timestamp'));
  const now = options.now ? options.now() : Math.floor(Date.now() / 1000);
  if (timestamp === null || Math.abs(now - timestamp) > TIMESTAMP_WINDOW_SECONDS) {
    throw ApiError.unauthorized(Message.invalidTimestamp);
  }
  const nonce = oauth.get('oauth_nonce');
  if (!nonce) throw ApiError.unauthorized(Message.nonceUsed);

  let credentials: TokenCredentials | null = null;
  if (token) {
    const lookup = options.tokenSecretLookup ?? store.accessTokens;
    credentials = await lookup(token);
    // A token issued to another consumer is as good as unknown to this one.
    if (!credentials || credentials.consumerKey !== consumer.key) throw ApiError.unauthorized(Message.invalidToken);
  }

  const uri = baseStringUri(req.scheme, req.host, req.path);
  const base = signatureBaseString(req.method, uri, params.all);
  const expected = hmacSha1(base, consumer.secret, credentials?.secret ?? '');
  if (!signaturesEqual(signature, expected)) throw ApiError.unauthorized(Message.invalidSignature);

  // One step of the guard: the nonce is claimed and, when new, the request charged to the quota
  // (judged by http/quota.ts once the route has the context).
  const admission = await store.admit(
    { consumerKey: consumer.key, token: token ?? '', timestamp, nonce },
    consumer,
    now,
  );
  if (admission.kind === 'replay') throw ApiError.unauthorized(Message.nonceUsed);
  if (admission.kind === 'stale') throw ApiError.unauthorized(Message.invalidTimestamp);
  const charge = admission.charge;

  return token && credentials
    ? {
        consumer,
        token: { token, userId: credentials.userId, ...(credentials.user ? { user: credentials.user } : {}) },
        charge,
      }
    : { consumer, charge };
}

/** Unix seconds as decimal digits only; anything else (floats, signs, hex) is invalid. */
function parseTimestamp(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}
