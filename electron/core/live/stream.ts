import { backoffDelay, isTimestampRefusal, parseStatusBody, sign, sleep } from '../transport/index.ts';
import type { SigningContext } from '../types.ts';
import { EventParser, type LiveEvent } from './sse.ts';

export interface LiveStreamOptions {
  /** The active profile's consumer and token; null when signed out. */
  signingContext: () => SigningContext | null;
  /** The signed-in account, `${profileId}:${userId}`, or null. */
  account: () => string | null;
  /**
   * The transport's clock (its learnt skew): the stream is signed with the same oauth_timestamp as
   * every other request, and a "Timestamp Is Invalid" answer corrects it as the transport does.
   */
  clock?: LiveClock;
  /** Each event of the account's stream, in order. */
  onEvent: (event: LiveEvent, account: string) => void;
  /** The service has no change stream (a historical one): the app revalidates as it always did. */
  onUnsupported?: (account: string) => void;
  fetch?: typeof fetch;
  /** Reconnect backoff (default 1 s doubling to 60 s, jittered). */
  retry?: { baseMs?: number; maxMs?: number };
  log?: (message: string, error?: unknown) => void;
}

export interface LiveClock {
  /** oauth_timestamp now, corrected by the skew learnt so far. */
  timestamp(): number;
  /** Reads the service's clock again (after a "Timestamp Is Invalid" answer). */
  correct(ctx: SigningContext, signal: AbortSignal): Promise<void>;
}

type Outcome = 'opened' | 'retry' | 'unsupported' | 'clock';

/** Answers that mean the service has no change stream at that path. */
const UNSUPPORTED = new Set([400, 404, 405, 501]);

/**
 * One change stream (`GET /users/UID/changes`, docs/API.md) for the signed-in account while the
 * app runs: reconnects with backoff and `Last-Event-ID`, starts again for another account, and
 * stops for a service that has none. Owned by the core (compose.ts), one per core.
 */
export class LiveStream {
  private running: { account: string; abort: AbortController } | undefined;
  private readonly lastIds = new Map<string, string>();
  private readonly unsupported = new Set<string>();
  private closed = false;

  constructor(private readonly options: LiveStreamOptions) {}

  /** Follows the account signed in now: a stream for it, none when signed out. */
  follow(): void {
    const account = this.options.account();
    if (this.running?.account === account) return;
    this.running?.abort.abort();
    this.running = undefined;
    if (this.closed || account === null || this.unsupported.has(account)) return;
    const run = { account, abort: new AbortController() };
    this.running = run;
    void this.hold(run);
  }

  close(): void {
    this.closed = true;
    this.running?.abort.abort();
    this.running = undefined;
  }

  private async hold(run: { account: string; abort: AbortController }): Promise<void> {
    let attempt = 0;
    let clockCorrected = false;
    while (!run.abort.signal.aborted) {
      const outcome = await this.connect(run).catch((error: unknown) => {
        if (!run.abort.signal.aborted) this.options.log?.('The change stream was cut', error);
        return 'retry' as const;
      });
      if (outcome === 'unsupported') {
        this.unsupported.add(run.account);
        this.options.onUnsupported?.(run.account);
        return;
      }
      // A skewed clock is corrected once, then signed again at once; refused again, it waits like any failure.
      if (outcome === 'clock' && !clockCorrected && (await this.correctClock(run))) {
        clockCorrected = true;
        continue;
      }
      if (outcome === 'opened') {
        attempt = 0;
        clockCorrected = false;
      }
      const wait = backoffDelay(attempt++, {
        baseMs: this.options.retry?.baseMs ?? 1_000,
        maxMs: this.options.retry?.maxMs ?? 60_000,
      });
      await sleep(wait, run.abort.signal).catch(() => undefined);
    }
  }

  /** Learns the service's clock as the transport does; false when it could not (then the stream waits). */
  private async correctClock(run: { account: string; abort: AbortController }): Promise<boolean> {
    const ctx = this.options.signingContext();
    if (!ctx || !this.options.clock) return false;
    try {
      await this.options.clock.correct(ctx, run.abort.signal);
      return true;
    } catch (error) {
      if (!run.abort.signal.aborted) this.options.log?.("Reading the service's clock for the change stream", error);
      return false;
    }
  }

  /** One connection, read until it ends: 'opened' when it was open, else why not. */
  private async connect(run: { account: string; abort: AbortController }): Promise<Outcome> {
    const ctx = this.options.signingContext();
    if (!ctx?.token) return 'retry';
    const userId = run.account.slice(run.account.indexOf(':') + 1);
    const url = `${ctx.baseUrl.replace(/\/+$/, '')}/users/${encodeURIComponent(userId)}/changes`;
    const timestamp = this.options.clock?.timestamp();
    const signed = sign({
      method: 'GET',
      url,
      consumer: ctx.consumer,
      token: ctx.token,
      ...(timestamp !== undefined ? { timestamp } : {}),
    });
    const last = this.lastIds.get(run.account);
    const res = await (this.options.fetch ?? fetch)(url, {
      headers: {
        authorization: signed.header,
        accept: 'text/event-stream',
        ...(last ? { 'last-event-id': last } : {}),
      },
      signal: run.abort.signal,
    });
    if (res.status !== 200 || !res.body || !/^text\/event-stream/.test(res.headers.get('content-type') ?? '')) {
      if (res.status === 401 && isTimestampRefusal(401, parseStatusBody(await res.text().catch(() => ''))))
        return 'clock';
      await res.body?.cancel().catch(() => undefined);
      return res.status !== 200 && UNSUPPORTED.has(res.status) ? 'unsupported' : 'retry';
    }
    const parser = new EventParser();
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
        if (event.id !== undefined) this.lastIds.set(run.account, event.id);
        this.options.onEvent(event, run.account);
      }
    }
    return 'opened';
  }
}
