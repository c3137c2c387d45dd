/**
 * The live room's door: one change stream per signed-in account (stream.ts), its events turned
 * into revalidations through the ETag cache (a 304 costs nothing) and into the IPC table's events.
 * Other rooms import only this file; compose.ts wires it.
 */
import type { Events } from '../../../shared/ipc.ts';
import type { SigningContext } from '../types.ts';
import type { LiveEvent } from './sse.ts';
import { readIfNews, type LiveQueues } from './queue-news.ts';
import { LiveStream, type LiveClock } from './stream.ts';

export type { LiveEvent } from './sse.ts';
export type { LiveClock } from './stream.ts';
export type { LiveQueues } from './queue-news.ts';

type QueueKind = 'instant' | 'disc';

export interface LiveUpdatesOptions {
  signingContext: () => SigningContext | null;
  account: () => string | null;
  /** The queue room: a queue is read again unless the core already holds the event's version (its own write). */
  queues: LiveQueues;
  /** Tells the renderer what changed elsewhere (shared/ipc.ts 'live.changed'): a queue once it is read again. */
  changed: (payload: Events['live.changed']) => void;
  /** The catalog changed: availability alerts are checked now, not at the next poll. */
  catalogChanged: () => void;
  /** The transport's corrected clock, so a skewed local clock does not refuse the stream over and over. */
  clock?: LiveClock;
  fetch?: typeof fetch;
  retry?: { baseMs?: number; maxMs?: number };
  log?: (message: string, error?: unknown) => void;
}

export interface LiveUpdates {
  /** Start-up, sign-in, sign-out, profile switch: the stream follows the account signed in now. */
  follow(): void;
  close(): void;
}

/** A burst of events (a bulk replace, a series added) is acted on once, this long after its first. */
const BURST_MS = 150;

export function createLiveUpdates(options: LiveUpdatesOptions): LiveUpdates {
  const later = new Coalescer(BURST_MS);
  const refresh = (account: string, kind: QueueKind, etag?: string) =>
    later.run(`queue ${kind}`, () =>
      readIfNews(options.queues, kind, etag).then(
        (news) => news && options.account() === account && options.changed({ what: 'queue', kind }),
        (error: unknown) => options.log?.(`Reading the ${kind} queue again`, error),
      ),
    );
  const changed = (what: Events['live.changed']['what']) => later.run(what, () => options.changed({ what }));
  const react = (event: LiveEvent, account: string) => {
    if (options.account() !== account) return; // a late event of an account signed out meanwhile
    switch (event.event) {
      case 'ready':
      case 'reset': // (re)connected: what changed while no stream was open is read again
        refresh(account, 'instant');
        refresh(account, 'disc');
        if (event.event === 'reset') changed('all');
        return;
      case 'queue': {
        const { kind, etag } = queueOf(event.data);
        if (kind) refresh(account, kind, etag);
        return;
      }
      case 'rating':
        return changed('ratings');
      case 'title_state':
        return changed('title_states');
      case 'catalog':
        options.catalogChanged();
        return changed('catalog');
    }
  };
  const stream = new LiveStream({
    signingContext: options.signingContext,
    account: options.account,
    onEvent: react,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    follow: () => stream.follow(),
    close: () => {
      stream.close();
      later.cancel();
    },
  };
}

/** Runs each named action once per burst: the last call's action, `ms` after the burst's first. */
class Coalescer {
  private readonly waiting = new Map<string, { timer: NodeJS.Timeout; action: () => unknown }>();

  constructor(private readonly ms: number) {}

  run(name: string, action: () => unknown): void {
    const held = this.waiting.get(name);
    if (held) {
      held.action = action;
      return;
    }
    const entry = {
      action,
      timer: setTimeout(() => {
        this.waiting.delete(name);
        entry.action();
      }, this.ms),
    };
    this.waiting.set(name, entry);
  }

  cancel(): void {
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }
}

function queueOf(data: string): { kind?: QueueKind; etag?: string } {
  try {
    const { queue, etag } = JSON.parse(data) as { queue?: unknown; etag?: unknown };
    return {
      ...(queue === 'instant' || queue === 'disc' ? { kind: queue } : {}),
      ...(typeof etag === 'string' ? { etag } : {}),
    };
  } catch {
    return {};
  }
}
