import {
  createEventHub,
  deriveApi,
  EVENT_NAMES,
  type EventName,
  type MarqueeApi,
  type OperationName,
} from '../shared/ipc.ts';
import type { Result } from '../shared/models.ts';

/**
 * The renderer's one way out: `window.marquee` (Electron's preload), or the same API derived from
 * the operation table over the web host's loopback HTTP, carrying the per-launch token.
 */
declare global {
  interface Window {
    marquee?: MarqueeApi;
  }
}

const TOKEN_KEY = 'marquee.token';

/** The token from `#token=…` (then removed from the address bar), or from this tab's session. */
export function takeLaunchToken(): string | null {
  const fromHash = /(?:^#|&)token=([\w-]+)/.exec(location.hash)?.[1];
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    history.replaceState(null, '', location.pathname + location.search);
    return fromHash;
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

/** One method per operation name, POST /api/<name>; events from /api/events (SSE read with fetch, so the token goes in a header). */
export function webHostApi(token: string | null, base = ''): MarqueeApi {
  const headers = (extra: Record<string, string> = {}) => ({
    ...extra,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });
  const invoke = async (name: OperationName, input: unknown): Promise<Result<unknown>> => {
    let res: Response;
    try {
      res = await fetch(`${base}/api/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: JSON.stringify(input ?? {}),
      });
    } catch {
      return {
        ok: false,
        error: { kind: 'offline', message: 'The Marquee web host is not reachable: is npm start still running?' },
      };
    }
    const body = (await res.json().catch(() => null)) as Result<unknown> | null;
    if (body && typeof body.ok === 'boolean') return body;
    return {
      ok: false,
      error: { kind: 'server', status: res.status, message: `Unexpected answer from the web host (${res.status})` },
    };
  };
  let stream: AbortController | null = null;
  const events = createEventHub((listeners) => {
    if (listeners > 0 && !stream) {
      stream = new AbortController();
      void readEvents(`${base}/api/events`, headers(), emit, stream.signal);
    } else if (listeners === 0 && stream) {
      stream.abort();
      stream = null;
    }
  });
  const emit = (event: string, data: string) => {
    if (EVENT_NAMES.includes(event as EventName)) events.emit(event as EventName, JSON.parse(data));
  };
  return deriveApi(invoke, events.subscribe);
}

/** Reads a Server-Sent Events stream, reconnecting after a pause until aborted. */
async function readEvents(
  url: string,
  headers: Record<string, string>,
  emit: (event: string, data: string) => void,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    try {
      const res = await fetch(url, { headers, signal });
      if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: ?(.*)$/m.exec(block)?.[1];
          const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((m) => m[1]).join('\n');
          if (event && data) emit(event, data);
        }
      }
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** True in a browser through the web host; false in the desktop app, whose main process shows notifications itself. */
export const inWebHost = window.marquee === undefined;

export const api: MarqueeApi = window.marquee ?? webHostApi(takeLaunchToken());
