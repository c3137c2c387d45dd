import { z } from 'zod';
import type {
  AuthStatus, Category, Page, Person, Queue, QueueProgress, Rating, Recommendation, Ref, RentalItem, ServiceProfile,
  TitleDetail, TitleState, TitleSummary, User, Result,
} from './models.ts';

/**
 * THE app API: one table of operations, each with its input schema and result type. The preload,
 * the web host and the renderer's client are derived from this table; main validates every input
 * against its schema before a handler runs.
 */
const ref = z.string().min(1).max(2048);
const kind = z.enum(['instant', 'disc']);
const paging = { start: z.number().int().min(0).optional(), max: z.number().int().min(1).max(500).optional() };
const position = z.number().int().min(1).max(500);

function op<R>() {
  return <S extends z.ZodType>(input: S) => ({ input, result: undefined as unknown as R });
}

export const operations = {
  'auth.status': op<AuthStatus>()(z.object({})),
  /** Opens the service's sign-in page in the system browser; resolves once signed in. */
  'auth.signIn': op<AuthStatus>()(z.object({ mode: z.enum(['loopback', 'oob']).optional() })),
  /** The PIN the sign-in page showed, when a loopback callback could not work. */
  'auth.completeWithPin': op<AuthStatus>()(z.object({ pin: z.string().min(1).max(64) })),
  'auth.signOut': op<AuthStatus>()(z.object({})),
  /** Stops waiting for a sign-in started by auth.signIn (which then resolves 'auth' cancelled). */
  'auth.cancel': op<AuthStatus>()(z.object({})),

  'catalog.search': op<Page<TitleSummary>>()(z.object({ term: z.string().min(1).max(500), ...paging })),
  /** Titles of one genre (the service's `genre` extension of /catalog/titles), paged. */
  'catalog.browse': op<Page<TitleSummary>>()(
    z.object({ genre: z.string().min(1).max(200), type: z.enum(['movie', 'series']).optional(), availableNow: z.boolean().optional(), ...paging }),
  ),
  /** People whose name matches (`/catalog/people?term=`), paged. */
  'catalog.people': op<Page<Ref>>()(z.object({ term: z.string().min(1).max(500), ...paging })),
  'catalog.autocomplete': op<string[]>()(z.object({ term: z.string().min(1).max(200) })),
  'catalog.title': op<TitleDetail>()(z.object({ ref })),
  'catalog.person': op<Person>()(z.object({ ref })),
  'catalog.categories': op<Category[]>()(z.object({ scheme: z.enum(['genres', 'mpaa_ratings', 'tv_ratings', 'title_formats']) })),

  'user.current': op<User>()(z.object({})),
  'queue.list': op<Queue>()(z.object({ kind, view: z.enum(['all', 'available', 'saved']).optional(), ...paging })),
  'queue.add': op<Queue>()(z.object({ kind, ref, position: position.optional(), format: z.enum(['instant', 'DVD', 'Blu-ray']).optional() })),
  'queue.move': op<Queue>()(z.object({ kind, ref, position })),
  'queue.remove': op<Queue>()(z.object({ kind, ref })),
  /**
   * Sets the available part of a queue to `refs` in that order (unlisted available titles leave
   * it; saved ones stay): one atomic PUT when the service has it, else a sequence of moves and
   * removes with 'queue.progress' events, cancellable. Bulk moves, sorts, removes and undo use it.
   */
  'queue.replace': op<Queue>()(z.object({ kind, refs: z.array(ref).max(500) })),
  /** Stops a running sequence-of-moves replace after the current step. */
  'queue.cancelBulk': op<Queue>()(z.object({ kind })),
  'titles.states': op<TitleState[]>()(z.object({ refs: z.array(ref).min(1).max(100) })),
  'ratings.get': op<Rating[]>()(z.object({ refs: z.array(ref).min(1).max(100) })),
  'ratings.set': op<Rating>()(z.object({ ref, rating: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal('not_interested'), z.null()]) })),
  'recommendations.list': op<Page<Recommendation>>()(z.object(paging)),
  'history.list': op<Page<RentalItem>>()(z.object({ view: z.enum(['all', 'shipped', 'returned', 'watched']).optional(), ...paging })),

  'profiles.list': op<{ profiles: ServiceProfile[]; activeId: string }>()(z.object({})),
  'profiles.save': op<ServiceProfile>()(
    z.object({
      id: z.string().min(1).max(64).optional(),
      label: z.string().min(1).max(100),
      baseUrl: z.string().url().max(2048).refine((u) => /^https?:\/\//.test(u), 'must be http(s)'),
      consumerKey: z.string().min(1).max(200),
      consumerSecret: z.string().min(1).max(200),
    }),
  ),
  'profiles.remove': op<{ profiles: ServiceProfile[]; activeId: string }>()(z.object({ id: z.string().min(1).max(64) })),
  'profiles.activate': op<AuthStatus>()(z.object({ id: z.string().min(1).max(64) })),
} as const;

export type OperationName = keyof typeof operations;
export type OperationInput<N extends OperationName> = z.input<(typeof operations)[N]['input']>;
export type OperationResult<N extends OperationName> = (typeof operations)[N]['result'];
export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

/** What main pushes to the renderer. */
export interface Events {
  'queue.changed': { kind: 'instant' | 'disc'; queue: Queue };
  /** A queued edit could not be applied as intended (after a refetch and one retry). */
  'queue.conflict': { kind: 'instant' | 'disc'; message: string; applied: boolean };
  /** A bulk change (queue.replace) under way. */
  'queue.progress': QueueProgress;
  'auth.changed': AuthStatus;
  'connectivity.changed': { online: boolean; pendingEdits: number };
  'quota.exceeded': { retryAfter: number; message: string };
}
export type EventName = keyof Events;
export const EVENT_NAMES: EventName[] = ['queue.changed', 'queue.conflict', 'queue.progress', 'auth.changed', 'connectivity.changed', 'quota.exceeded'];

/** `window.marquee`: one method per operation, results as values, plus event subscription. */
export type MarqueeApi = {
  [N in OperationName]: (input: OperationInput<N>) => Promise<Result<OperationResult<N>>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
};

/** The single IPC channel prefix; main validates the sender before anything else. */
export const IPC_CHANNEL = 'marquee:invoke';
export const IPC_EVENT_CHANNEL = 'marquee:event';

/** Parses an operation's input or returns the validation problem as a message. */
export function parseInput<N extends OperationName>(name: N, input: unknown): { ok: true; value: OperationInput<N> } | { ok: false; message: string } {
  const parsed = operations[name].input.safeParse(input ?? {});
  if (parsed.success) return { ok: true, value: parsed.data as OperationInput<N> };
  return { ok: false, message: parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ') };
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
export function createEventHub(onCount?: (listeners: number) => void): { subscribe: Subscribe; emit(event: EventName, payload: unknown): void } {
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
