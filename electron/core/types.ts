import type { AppError } from '../../shared/models.ts';

/**
 * The seams between the core's modules, so each can be built and tested on its own:
 * transport (signing, caching, retries) under client (resources → models) under the app API (api/).
 */

/** CONTRACT.md §5's levels: consumer key only, consumer-signed, or signed with the access token. */
export type AuthLevel = 'key' | 'signed' | 'protected';

export interface ServiceRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Absolute URL (a ref or link from the service) or a path under the profile's base URL. */
  url: string;
  query?: Record<string, string>;
  /** Form body parameters (signed). */
  form?: Record<string, string>;
  level: AuthLevel;
  /** Sent as If-Match on queue writes. */
  ifMatch?: string;
  /**
   * GETs revalidate with If-None-Match and serve 304s from the ETag cache unless false;
   * 'refresh': ask without If-None-Match and replace the cached answer.
   */
  cache?: boolean | 'refresh';
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Signs with this instead of the active profile's context: a sign-in signs for its own profile, with its request token. */
  signAs?: SigningContext;
  /** Protocol parameters signed and sent with the others in the Authorization header (oauth_callback, oauth_verifier). */
  oauth?: Record<string, string>;
  /**
   * A refused answer (status 400 and up) is returned, not thrown, once the transport's own retries
   * (clock skew, pacing) are done: the token calls make their own errors of it.
   */
  answerRefusals?: boolean;
}

export interface ServiceResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Decoded body text (gunzipped). */
  body: string;
  /** True when a 304 was answered from the cache. */
  fromCache: boolean;
}

export interface Credentials {
  key: string;
  secret: string;
}

/** Everything the transport needs to sign for the active profile. */
export interface SigningContext {
  baseUrl: string;
  consumer: Credentials;
  token: Credentials | null;
}

export interface Transport {
  request(req: ServiceRequest): Promise<ServiceResponse>;
}

/** A failed call, carrying the app-level error the renderer gets as a value. */
export class ServiceError extends Error {
  constructor(
    readonly appError: AppError,
    options?: ErrorOptions,
  ) {
    super(appError.message, options);
    this.name = 'ServiceError';
  }
}
