/**
 * The live room's door: one change stream per signed-in account (stream.ts), its events turned
 * into revalidations through the ETag cache (a 304 costs nothing) and into the IPC table's events.
 * Other rooms import only this file; compose.ts wires it.
 */
import type { Events } from '../../../shared/ipc.ts';
import type { SigningContext } from '../types.ts';
import type { LiveEvent } from './sse.ts';
import { LiveStream } from './stream.ts';

export type { LiveEvent } from './sse.ts';

type QueueKind = 'instant' | 'disc';

export interface LiveUpdatesOptions {
  signingContext: () => SigningContext | null;
  account: () => string | null;
  /** Reads a queue again (its ETag revalidated); the queue room tells the app when it changed. */
  refreshQueue: (kind: QueueKind) => Promise<unknown>;
  /** Tells the renderer what else changed elsewhere (shared/ipc.ts 'live.changed'). */
  changed: (payload: Events['live.changed']) => void;
  /** The catalog changed: availability alerts are checked now, not at the next poll. */
  catalogChanged: () => void;
  fetch?: typeof fetch;
  retry?: { baseMs?: number; maxMs?: number };
  log?: (message: string, error?: unknown) => void;
}

export interface LiveUpdates {
  /** Start-up, sign-in, sign-out, profile switch: the stream follows the account signed in now. */
  follow(): void;
  close(): void;
}

export function createLiveUpdates(options: LiveUpdatesOptions): LiveUpdates {
  const refresh = (kind: QueueKind) =>
    void options.refreshQueue(kind).catch((error: unknown) => options.log?.(`Reading the ${kind} queue again`, error));
  const react = (event: LiveEvent, account: string) => {
    if (options.account() !== account) return; // a late event of an account signed out meanwhile
    switch (event.event) {
      case 'ready':
      case 'reset': // (re)connected: what changed while no stream was open is read again
        refresh('instant');
        refresh('disc');
        if (event.event === 'reset') options.changed({ what: 'all' });
        return;
      case 'queue': {
        const kind = queueOf(event.data);
        if (kind) refresh(kind);
        return;
      }
      case 'rating':
        return options.changed({ what: 'ratings' });
      case 'title_state':
        return options.changed({ what: 'title_states' });
      case 'catalog':
        options.catalogChanged();
        return options.changed({ what: 'catalog' });
    }
  };
  const stream = new LiveStream({
    signingContext: options.signingContext,
    account: options.account,
    onEvent: react,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  return { follow: () => stream.follow(), close: () => stream.close() };
}

function queueOf(data: string): QueueKind | undefined {
  try {
    const queue = (JSON.parse(data) as { queue?: unknown }).queue;
    return queue === 'instant' || queue === 'disc' ? queue : undefined;
  } catch {
    return undefined;
  }
}
