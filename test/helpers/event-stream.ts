import { authHeader, type Credentials } from './oauth-client.ts';

/** One Server-Sent Event as received. */
export interface ReceivedEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * A signed `text/event-stream` client over real HTTP, as an app would hold one: it reads in the
 * background and keeps every event, so a test waits for the one it expects.
 */
export class EventStreamClient {
  readonly events: ReceivedEvent[] = [];
  ended = false;
  private buffer = '';
  private readonly waiters = new Set<() => void>();

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly body: string,
    private readonly abort: AbortController,
  ) {}

  /** Opens the stream; a refusal (not 200) is answered with its status and body, not read on. */
  static async open(
    base: string,
    path: string,
    consumer: Credentials,
    token: Credentials,
    headers: Record<string, string> = {},
  ): Promise<EventStreamClient> {
    const url = `${base}${path}`;
    const abort = new AbortController();
    const res = await fetch(url, {
      headers: { authorization: authHeader(consumer, 'GET', url, {}, token), ...headers },
      signal: abort.signal,
    });
    if (res.status !== 200) return new EventStreamClient(res.status, res.headers, await res.text(), abort);
    const client = new EventStreamClient(res.status, res.headers, '', abort);
    void client.read(res.body!);
    return client;
  }

  /** The first event (from `from` on) that `match` accepts, waiting up to `timeoutMs` for it. */
  async waitFor(match: (e: ReceivedEvent) => boolean, timeoutMs = 10_000, from = 0): Promise<ReceivedEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      if (this.ended) throw new Error(`the stream ended before the event; got ${JSON.stringify(this.events)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such event within ${timeoutMs} ms; got ${JSON.stringify(this.events)}`);
      await this.next(left);
    }
  }

  /** Resolves when the service ends the stream (within `timeoutMs`). */
  async waitForEnd(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the stream did not end within ${timeoutMs} ms`);
      await this.next(left);
    }
  }

  close(): void {
    this.abort.abort();
  }

  private next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        this.buffer += decoder.decode(chunk, { stream: true });
        this.parse();
      }
    } catch {
      // aborted by close(), or the connection was cut
    }
    this.ended = true;
    for (const w of [...this.waiters]) w();
  }

  private parse(): void {
    let cut: number;
    while ((cut = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut + 2);
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
      }
      if (fields.has('event') || fields.has('data'))
        this.events.push({
          id: fields.get('id'),
          event: fields.get('event') ?? 'message',
          data: fields.get('data') ?? '',
        });
    }
    for (const w of [...this.waiters]) w();
  }
}
