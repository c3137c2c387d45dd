import { z } from 'zod';
import { inWords } from './ipc-words.ts';
import { QUEUE_LIMIT } from './protocol/queue.ts';
import { preferencesSchema, type Preferences } from './preferences.ts';
import { alertSettingsSchema, type AlertList, type AlertSettings, type NewAlerts } from './alerts.ts';
import type {
  ExportResult,
  ImportCandidate,
  ImportFile,
  ImportMatch,
  ImportOutcome,
  ImportProgress,
} from './import-export.ts';
import type {
  AuthStatus,
  Category,
  Page,
  Person,
  Queue,
  QueueProgress,
  Rating,
  Recommendation,
  Ref,
  RefusedEdit,
  RentalItem,
  ServiceProfile,
  TitleDetail,
  TitleState,
  TitleSummary,
  User,
  Result,
} from './models.ts';

/**
 * THE app API: one table of operations, each with its input schema, result type and whether it
 * needs a signed-in subscriber. The preload, the web host and the renderer's client are derived
 * from this table; the core's dispatch validates every input against its schema (the one place)
 * and refuses a signed-in operation when nobody is, before a handler runs.
 */
const ref = z.string().min(1).max(2048);
const kind = z.enum(['instant', 'disc']);
const paging = { start: z.number().int().min(0).optional(), max: z.number().int().min(1).max(500).optional() };
const position = z.number().int().min(1).max(QUEUE_LIMIT);
const userRating = z.union([
  z.literal(1),
  z.literal(2),
  z.literal(3),
  z.literal(4),
  z.literal(5),
  z.literal('not_interested'),
]);
const refs = z.array(ref).max(QUEUE_LIMIT);
const refusedId = z.string().min(1).max(100);
/** A list to import, as the renderer read it from a file (the web host's body limit is 1 MiB). */
const fileText = z
  .string()
  .min(1, 'The file is empty.')
  .max(1_000_000, 'This file is too large to import (over 800 KB): export a shorter list.');
const importEntry = z.object({
  title: z.string().min(1).max(500),
  year: z.number().int().nullable(),
  type: z.enum(['movie', 'series']).nullable(),
  ref: ref.nullable(),
});
const searchTerm = z
  .string()
  .trim()
  .min(1, 'Type something to search for.')
  .max(500, 'Search for at most 500 characters.');

interface OperationOptions {
  /** Refused with kind 'auth', before any request, when nobody is signed in. */
  signIn?: boolean;
}

function op<R>(options: OperationOptions = {}) {
  return <S extends z.ZodType>(input: S) => ({
    input,
    signIn: options.signIn ?? false,
    result: undefined as unknown as R,
  });
}
const signedIn: OperationOptions = { signIn: true };

export const operations = {
  'auth.status': op<AuthStatus>()(z.object({})),
  /** Opens the service's sign-in page in the system browser; resolves once signed in. */
  'auth.signIn': op<AuthStatus>()(z.object({ mode: z.enum(['loopback', 'oob']).optional() })),
  /** The PIN the sign-in page showed, when a loopback callback could not work. */
  'auth.completeWithPin': op<AuthStatus>()(z.object({ pin: z.string().min(1).max(64) })),
  'auth.signOut': op<AuthStatus>()(z.object({})),
  /** Stops waiting for a sign-in started by auth.signIn (which then resolves 'auth' cancelled). */
  'auth.cancel': op<AuthStatus>()(z.object({})),

  'catalog.search': op<Page<TitleSummary>>()(z.object({ term: searchTerm, ...paging })),
  /** Titles of one genre (the service's `genre` extension of /catalog/titles), paged. */
  'catalog.browse': op<Page<TitleSummary>>()(
    z.object({
      genre: z.string().min(1).max(200),
      type: z.enum(['movie', 'series']).optional(),
      availableNow: z.boolean().optional(),
      ...paging,
    }),
  ),
  /** People whose name matches (`/catalog/people?term=`), paged. */
  'catalog.people': op<Page<Ref>>()(z.object({ term: searchTerm, ...paging })),
  'catalog.autocomplete': op<string[]>()(
    z.object({
      term: z.string().min(1, 'Type something to search for.').max(200, 'Search for at most 200 characters.'),
    }),
  ),
  /** One expanded request: everything the title panel shows, its similars by name. */
  'catalog.title': op<TitleDetail>()(z.object({ ref })),
  /** A title's similars with box art: `ref` is the title's `similarsRef` (asked for when the row is seen). */
  'catalog.similars': op<Page<TitleSummary>>()(z.object({ ref })),
  'catalog.person': op<Person>()(z.object({ ref })),
  'catalog.categories': op<Category[]>()(
    z.object({ scheme: z.enum(['genres', 'mpaa_ratings', 'tv_ratings', 'title_formats']) }),
  ),

  'user.current': op<User>(signedIn)(z.object({})),
  'queue.list': op<Queue>(signedIn)(
    z.object({ kind, view: z.enum(['all', 'available', 'saved']).optional(), ...paging }),
  ),
  'queue.add': op<Queue>(signedIn)(
    z.object({ kind, ref, position: position.optional(), format: z.enum(['instant', 'DVD', 'Blu-ray']).optional() }),
  ),
  'queue.move': op<Queue>(signedIn)(z.object({ kind, ref, position })),
  'queue.remove': op<Queue>(signedIn)(z.object({ kind, ref })),
  /**
   * Sets the available part of a queue to `refs` in that order (unlisted available titles leave
   * it; saved ones stay): one atomic PUT when the service has it, else a sequence of moves and
   * removes with 'queue.progress' events, cancellable. Bulk moves, sorts, removes and undo use it.
   */
  'queue.replace': op<Queue>(signedIn)(z.object({ kind, refs })),
  /** Stops a running sequence-of-moves replace after the current step. */
  'queue.cancelBulk': op<Queue>(signedIn)(z.object({ kind })),
  /** Edits the service refused when they were sent later (made offline): kept, each in words, until retried or discarded. */
  'queue.refused': op<RefusedEdit[]>(signedIn)(z.object({})),
  /** Sends a refused edit again; the refused edits left ('queue.refused' follows if it is refused again). */
  'queue.retryRefused': op<RefusedEdit[]>(signedIn)(z.object({ id: refusedId })),
  /** Forgets a refused edit for good; the refused edits left. */
  'queue.discardRefused': op<RefusedEdit[]>(signedIn)(z.object({ id: refusedId })),
  'titles.states': op<TitleState[]>(signedIn)(z.object({ refs: z.array(ref).min(1).max(100) })),
  'ratings.get': op<Rating[]>(signedIn)(z.object({ refs: z.array(ref).min(1).max(100) })),
  'ratings.set': op<Rating>(signedIn)(
    z.object({
      ref,
      rating: userRating.nullable(),
    }),
  ),
  /** The subscriber's own ratings (`{user}/ratings/title/actual`), paged. */
  'ratings.list': op<Page<Rating>>(signedIn)(z.object(paging)),
  'recommendations.list': op<Page<Recommendation>>(signedIn)(z.object(paging)),
  'history.list': op<Page<RentalItem>>(signedIn)(
    z.object({ view: z.enum(['all', 'shipped', 'returned', 'watched']).optional(), ...paging }),
  ),

  /** Reads a list from a file's content (kind detected from the content): its entries, or a refusal in words. */
  'import.read': op<ImportFile>(signedIn)(z.object({ text: fileText })),
  /** Matches entries to the catalog ('import.progress' as it goes; 'import.cancel' stops it): one result per entry, in order. */
  'import.match': op<ImportMatch[]>(signedIn)(z.object({ entries: z.array(importEntry).min(1).max(1000) })),
  /** The review's "Search by hand": titles for a term, with where each can go in a queue. */
  'import.search': op<ImportCandidate[]>(signedIn)(z.object({ term: searchTerm })),
  /**
   * The confirmed import: `refs` into the `kind` queue at the top or bottom (one queue.replace with
   * its progress and Cancel; titles still to come to the saved part), then `ratings` set.
   */
  'import.apply': op<ImportOutcome>(signedIn)(
    z.object({
      kind,
      placement: z.enum(['top', 'bottom']),
      refs,
      ratings: z.array(z.object({ ref, rating: userRating })).max(1000),
    }),
  ),
  /** Takes back what an import did (from its outcome): order, saved titles added, ratings changed. */
  'import.undo': op<Queue>(signedIn)(
    z.object({
      kind,
      before: refs,
      after: refs,
      saved: refs,
      rated: z.array(z.object({ ref, before: userRating.nullable() })).max(1000),
    }),
  ),
  /** Stops a running match or import after its current step (a queue change under way too). */
  'import.cancel': op<{ cancelled: boolean }>(signedIn)(z.object({})),
  /**
   * Writes a queue, the ratings or the history (or all, JSON only) as CSV in Letterboxd's import
   * columns, Marquee's JSON document, or a queue's Atom feed (queues only). Electron saves it through a
   * dialog; the web host answers the file for the renderer to download.
   */
  'export.save': op<ExportResult>(signedIn)(
    z
      .object({
        what: z.enum(['instant', 'disc', 'ratings', 'history', 'all']),
        format: z.enum(['csv', 'json', 'atom']),
      })
      .refine(
        (x) => x.format !== 'atom' || x.what === 'instant' || x.what === 'disc',
        'An Atom feed holds a queue: choose the instant or the disc queue',
      )
      .refine((x) => x.what !== 'all' || x.format === 'json', 'Everything at once is exported as JSON'),
  ),

  /** The signed-in account's availability alerts, newest first, with the unread count; refs at today's address. */
  'alerts.list': op<AlertList>(signedIn)(z.object({})),
  /** Marks alerts read (all of them when no ids are given). */
  'alerts.markRead': op<AlertList>(signedIn)(
    z.object({ ids: z.array(z.string().min(1).max(4096)).max(500).optional() }),
  ),
  /** Checks availability now ('focus': unless a check ran in the last half minute); new alerts also come as 'alerts.new'. */
  'alerts.check': op<AlertList>(signedIn)(z.object({ reason: z.enum(['now', 'focus']).optional() })),
  'alerts.settings': op<AlertSettings>()(z.object({})),
  /** Changes how often to check, how many days ahead to tell of a title leaving, and desktop notifications on or off. */
  'alerts.setSettings': op<AlertSettings>()(alertSettingsSchema.partial()),

  /** The person's preferences (theme, page size, density, the timeline folded), kept by the core for every launch. */
  'preferences.get': op<Preferences>()(z.object({})),
  /** Changes some preferences (written through at once); the answer is all of them. */
  'preferences.set': op<Preferences>()(preferencesSchema.partial()),

  'profiles.list': op<{ profiles: ServiceProfile[]; activeId: string }>()(z.object({})),
  'profiles.save': op<ServiceProfile>()(
    z.object({
      id: z.string().min(1).max(64).optional(),
      label: z.string().min(1).max(100),
      baseUrl: z
        .string()
        .url('Enter the service address as a web address, like https://catalog.example.com.')
        .max(2048)
        .refine((u) => /^https?:\/\//.test(u), 'The service address must start with http:// or https://.'),
      consumerKey: z.string().min(1).max(200),
      consumerSecret: z.string().min(1).max(200),
    }),
  ),
  'profiles.remove': op<{ profiles: ServiceProfile[]; activeId: string }>()(
    z.object({ id: z.string().min(1).max(64) }),
  ),
  'profiles.activate': op<AuthStatus>()(z.object({ id: z.string().min(1).max(64) })),
} as const;

export type OperationName = keyof typeof operations;
export type OperationInput<N extends OperationName> = z.input<(typeof operations)[N]['input']>;
export type OperationResult<N extends OperationName> = (typeof operations)[N]['result'];
export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

/** Whether an operation needs a signed-in subscriber (its `op()` says so). */
export function needsSignIn(name: OperationName): boolean {
  return operations[name].signIn;
}

/** What main pushes to the renderer. */
export interface Events {
  'queue.changed': { kind: 'instant' | 'disc'; queue: Queue };
  /** A queued edit could not be applied as intended (after a refetch and one retry). */
  'queue.conflict': { kind: 'instant' | 'disc'; message: string; applied: boolean };
  /** A bulk change (queue.replace) under way. */
  'queue.progress': QueueProgress;
  /** The signed-in account's refused edits changed (one was refused, retried or discarded; another account signed in). */
  'queue.refused': { edits: RefusedEdit[] };
  'auth.changed': AuthStatus;
  'connectivity.changed': { online: boolean; pendingEdits: number };
  'quota.exceeded': { retryAfter: number; message: string };
  /** The embedded service's process stopped and is being started again, or is back (its host supervises it). */
  'service.changed': { state: 'restarting' | 'back' };
  /** Matching, saving or rating of an import under way. */
  'import.progress': ImportProgress;
  /** Availability events noticed by the watcher, each told once; `notify`: show desktop notifications. */
  'alerts.new': NewAlerts;
  /**
   * Another device changed the subscriber's ratings, title states or the catalog (the change stream):
   * read them again. `queue`: the core has read that queue again ('queue.changed' came first), for a notice.
   */
  'live.changed': { what: 'ratings' | 'title_states' | 'catalog' | 'all' | 'queue'; kind?: 'instant' | 'disc' };
  /** The desktop app's menu (or a file opened with it): main sends it, never the core. */
  'app.command': { command: 'import' | 'export' | 'alerts'; file?: { name: string; text: string; problem?: string } };
}
export type EventName = keyof Events;
/** Every event once: the compiler refuses a missing or an unknown name. */
const EVENT_TABLE: { [E in EventName]: true } = {
  'queue.changed': true,
  'queue.conflict': true,
  'queue.progress': true,
  'queue.refused': true,
  'auth.changed': true,
  'connectivity.changed': true,
  'quota.exceeded': true,
  'service.changed': true,
  'import.progress': true,
  'alerts.new': true,
  'live.changed': true,
  'app.command': true,
};
export const EVENT_NAMES = Object.keys(EVENT_TABLE) as EventName[];

/** `window.marquee`: one method per operation, results as values, plus event subscription. */
export type MarqueeApi = {
  [N in OperationName]: (input: OperationInput<N>) => Promise<Result<OperationResult<N>>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
};

/** The single IPC channel prefix; main validates the sender before anything else. */
export const IPC_CHANNEL = 'marquee:invoke';
export const IPC_EVENT_CHANNEL = 'marquee:event';

/** Parses an operation's input or says, in words a person can act on, what is wrong with it. */
export function parseInput<N extends OperationName>(
  name: N,
  input: unknown,
): { ok: true; value: OperationInput<N> } | { ok: false; message: string } {
  const parsed = operations[name].input.safeParse(input ?? {});
  if (parsed.success) return { ok: true, value: parsed.data as OperationInput<N> };
  return { ok: false, message: inWords(parsed.error.issues[0]!) };
}

export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(operations, name);
}

export type Invoke = (name: OperationName, input: unknown) => Promise<Result<unknown>>;
export type Subscribe = (event: EventName, listener: (payload: unknown) => void) => () => void;

/**
 * `window.marquee` from the table: one method per operation name, never hand-listed, plus `on`.
 * The preload builds it over IPC, the renderer over the web host's HTTP API.
 */
export function deriveApi(invoke: Invoke, subscribe: Subscribe): MarqueeApi {
  const api: Record<string, unknown> = {};
  for (const name of OPERATION_NAMES) api[name] = (input: unknown) => invoke(name, input ?? {});
  api.on = (event: EventName, listener: (payload: unknown) => void) => {
    if (!EVENT_NAMES.includes(event)) throw new Error(`unknown event: ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('listener must be a function');
    return subscribe(event, listener);
  };
  return Object.freeze(api) as unknown as MarqueeApi;
}

/**
 * The renderer side's listeners per event, fed by one relay of main's events. `onCount` hears the
 * number of listeners after each change (the web host client opens its event stream for the first
 * and closes it after the last).
 */
export function createEventHub(onCount?: (listeners: number) => void): {
  subscribe: Subscribe;
  emit(event: EventName, payload: unknown): void;
} {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const count = () => [...listeners.values()].reduce((n, set) => n + set.size, 0);
  return {
    subscribe(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      onCount?.(count());
      return () => {
        set.delete(listener);
        onCount?.(count());
      };
    },
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
  };
}
