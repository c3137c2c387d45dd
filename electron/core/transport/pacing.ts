import { abortReason, sleep as defaultSleep } from './backoff.ts';

/**
 * Keeps the app's requests within the service's per-second quota (CONTRACT.md §6), so browsing
 * never meets a quota error: a token bucket whose callers wait in line, in order. The
 * service's limit is not announced, so the bucket starts at the service's default (20 a second)
 * and learns: a per-second refusal halves the rate and pauses everyone for the Retry-After; each
 * accepted request then wins a little of the rate back.
 */

export interface PacingOptions {
  /** Starting (and highest) rate, requests per second; default 20, the service's default budget. */
  perSecond?: number;
  /** Lowest rate the bucket learns down to; default 1. */
  minPerSecond?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_PER_SECOND = 20;
/** Rate regained per accepted request (additive increase, multiplicative decrease). */
const RECOVERY_PER_REQUEST = 0.02;

export class RequestPacer {
  readonly #max: number;
  readonly #min: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  #rate: number;
  #tokens: number;
  #refilledAt: number;
  /** Nobody is sent before this (the Retry-After of the last refusal). */
  #pausedUntil = 0;
  /** When the rate was last lowered: refusals of requests sent before it are not counted again. */
  #slowedAt = -Infinity;
  /** The waiters, one at a time, so a rate learnt meanwhile applies to everyone still waiting. */
  #line: Promise<void> = Promise.resolve();

  constructor(options: PacingOptions = {}) {
    this.#max = options.perSecond ?? DEFAULT_PER_SECOND;
    this.#min = Math.min(options.minPerSecond ?? 1, this.#max);
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#rate = this.#max;
    this.#tokens = this.#max;
    this.#refilledAt = this.#now();
  }

  /** Requests per second the bucket lets through now. */
  get rate(): number {
    return this.#rate;
  }

  /** Waits for this request's turn (rejects with an AbortError when `signal` aborts first). */
  async take(signal?: AbortSignal): Promise<void> {
    const ahead = this.#line;
    let done!: () => void;
    this.#line = new Promise((resolve) => (done = resolve));
    try {
      await waitOrAbort(ahead, signal);
      await this.#token(signal);
    } finally {
      done();
    }
  }

  /** The service accepted a request: win back a little of the rate. */
  accepted(): void {
    this.#rate = Math.min(this.#max, this.#rate + RECOVERY_PER_REQUEST);
  }

  /**
   * The service refused a request sent at `sentAt` for the per-second quota: slow down and make
   * everyone wait `retryAfterSeconds`, unless it was sent before the last slowdown (it was paced
   * at the old rate: that refusal says nothing about the new one).
   */
  refused(retryAfterSeconds: number, sentAt: number = this.#now()): void {
    const now = this.#now();
    this.#pausedUntil = Math.max(this.#pausedUntil, now + Math.max(retryAfterSeconds, 0.1) * 1000);
    if (sentAt < this.#slowedAt) return;
    this.#slowedAt = now;
    this.#rate = Math.max(this.#min, this.#rate / 2);
    this.#tokens = 0;
    this.#refilledAt = this.#pausedUntil;
  }

  async #token(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.#now();
      if (now < this.#pausedUntil) {
        await this.#sleep(this.#pausedUntil - now, signal);
        continue;
      }
      this.#refill(now);
      if (this.#tokens >= 1) {
        this.#tokens -= 1;
        return;
      }
      await this.#sleep(Math.ceil(((1 - this.#tokens) / this.#rate) * 1000), signal);
    }
  }

  #refill(now: number): void {
    if (now <= this.#refilledAt) return;
    this.#tokens = Math.min(Math.max(1, this.#rate), this.#tokens + ((now - this.#refilledAt) / 1000) * this.#rate);
    this.#refilledAt = now;
  }
}

/** Resolves with `promise`, or rejects with the AbortError as soon as `signal` aborts. */
function waitOrAbort(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
  });
}
