import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';

export interface Credentials {
  key: string;
  secret: string;
}

/** A client-side signer from the `oauth-1.0a` library: independent of the service's verifier. */
export function signer(consumer: Credentials, timestamp?: number): OAuth {
  const oauth = new OAuth({
    consumer: { key: consumer.key, secret: consumer.secret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  // A client whose clock agrees with a service clock that a test has moved.
  if (timestamp !== undefined) oauth.getTimeStamp = () => timestamp;
  return oauth;
}

/**
 * OAuth parameters for a request: `url` may carry a query; `data` is the form body. oauth-1.0a's
 * `authorize` merges the query and body parameters into the object it returns (and into `data`),
 * so only the `oauth_*` entries are kept here and `data` is copied.
 */
export function oauthParams(
  consumer: Credentials,
  method: string,
  url: string,
  data: Record<string, string> = {},
  token?: Credentials,
  timestamp?: number,
): Record<string, string> {
  const all = signer(consumer, timestamp).authorize({ url, method, data: { ...data } }, token) as unknown as Record<
    string,
    string | number
  >;
  return Object.fromEntries(
    Object.entries(all)
      .filter(([k]) => k.startsWith('oauth_'))
      .map(([k, v]) => [k, String(v)]),
  );
}

/** The Authorization header for a signed request. */
export function authHeader(...request: Parameters<typeof oauthParams>): string {
  return signer(request[0]).toHeader(oauthParams(...request) as unknown as OAuth.Authorization).Authorization;
}

/** `url` with the OAuth parameters appended to its query (how most old clients signed). */
export function signedUrl(consumer: Credentials, method: string, url: string, token?: Credentials): string {
  const params = oauthParams(consumer, method, url, {}, token);
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.append(k, String(v));
  return u.toString().replace(/\+/g, '%20');
}
