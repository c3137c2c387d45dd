import { titlePath, type Alert, type AlertList, type AlertSettings, type NewAlerts } from '../../../shared/alerts.ts';
import type { QueueKind, TitleDetail } from '../../../shared/models.ts';
import type { Client } from '../client/index.ts';
import { ServiceError } from '../types.ts';
import {
  EMPTY_ACCOUNT_ALERTS,
  type AccountAlerts,
  type Observation,
  type SettingsStore,
  type StoredAlert,
} from '../settings/index.ts';
import { decide, fresh, keepNewest, observe, watchKey, type AlertDraft, type Watched } from './decide.ts';
import { inParallel } from '../../../shared/pure/in-parallel.ts';
import { QUEUE_LIMIT } from '../../../shared/protocol/queue.ts';

/**
 * The availability watcher: every `intervalMinutes` (and on start, sign-in and window focus) it
 * reads the person's queues and then each queued or saved title's windows, all through the
 * transport (If-None-Match from the ETag cache, so an unchanged catalog costs 304s; paced within
 * the quota like every request), and tells each new event once, kept in the settings store.
 * Titles are kept by path: the alerts answered carry the ref at the active profile's address.
 */
export interface WatcherOptions {
  client: Pick<Client, 'queue' | 'titleAvailability'>;
  settings: Pick<SettingsStore, 'getAlerts' | 'setAlerts' | 'getActiveProfile'>;
  /** The signed-in account's key, or null (then nothing is checked). */
  account: () => string | null;
  notify: (news: NewAlerts) => void;
  log: (message: string, error: unknown) => void;
  now?: () => number;
}

const QUEUES: QueueKind[] = ['instant', 'disc'];
/** Titles a check reads at once (the transport's pacer keeps them within the quota). */
const CONCURRENCY = 4;
const SEEN_KEPT = 5_000;
const ALERTS_KEPT = 200;
/** A focus soon after a check does not check again. */
const FOCUS_QUIET_MS = 30_000;

export class AlertWatcher {
  readonly #o: WatcherOptions;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | null = null;
  #following: Promise<void> | null = null;
  #lastCheck = -Infinity;
  #closed = false;

  constructor(options: WatcherOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  /** Checks now and then every interval. */
  start(): void {
    void this.check();
  }

  /** A check unless one ran in the last half minute (the window gained focus). */
  focused(): Promise<void> {
    return this.#now() - this.#lastCheck < FOCUS_QUIET_MS ? Promise.resolve() : this.check();
  }

  /**
   * One check, then the next is scheduled a full interval later. Asked while one is under way, a
   * second follows it (what changed meanwhile may have been read before the change); asked again
   * meanwhile, callers share that second one.
   */
  check(): Promise<void> {
    if (this.#running) {
      this.#following ??= this.#running.then(() => {
        this.#following = null;
        return this.check();
      });
      return this.#following;
    }
    this.#running = this.#checkOnce().finally(() => {
      this.#running = null;
      this.#schedule();
    });
    return this.#running;
  }

  settings(): AlertSettings {
    return this.#o.settings.getAlerts().settings;
  }

  setSettings(patch: Partial<AlertSettings>): AlertSettings {
    const stored = this.#o.settings.getAlerts();
    stored.settings = { ...stored.settings, ...patch };
    this.#o.settings.setAlerts(stored);
    this.#schedule();
    return stored.settings;
  }

  list(): AlertList {
    const alerts = this.#addressed([...this.#account().alerts].reverse());
    return { alerts, unread: alerts.filter((a) => !a.read).length };
  }

  /** Marks the given alerts (all when none given) read. */
  markRead(ids: readonly string[] | undefined): AlertList {
    const key = this.#o.account();
    if (key === null) return { alerts: [], unread: 0 };
    this.#update(key, (acc) => ({
      ...acc,
      alerts: acc.alerts.map((a) => (ids === undefined || ids.includes(a.id) ? { ...a, read: true } : a)),
    }));
    return this.list();
  }

  /** Kept alerts with their titles' refs at the service's current address (the one the client reads). */
  #addressed(alerts: readonly StoredAlert[]): Alert[] {
    const origin = originOf(this.#o.settings.getActiveProfile()?.baseUrl ?? '');
    return alerts.map(({ path, ...alert }) => ({ ...alert, ref: `${origin}${path}` }));
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    if (this.#closed) return;
    this.#timer = setTimeout(() => void this.check(), this.settings().intervalMinutes * 60_000);
    this.#timer.unref?.();
  }

  #account(): AccountAlerts {
    const key = this.#o.account();
    return (key !== null && this.#o.settings.getAlerts().accounts[key]) || EMPTY_ACCOUNT_ALERTS;
  }

  #update(key: string, change: (acc: AccountAlerts) => AccountAlerts): void {
    const stored = this.#o.settings.getAlerts();
    stored.accounts[key] = change(stored.accounts[key] ?? structuredClone(EMPTY_ACCOUNT_ALERTS));
    this.#o.settings.setAlerts(stored);
  }

  async #checkOnce(): Promise<void> {
    const key = this.#o.account();
    if (key === null || this.#closed) return;
    this.#lastCheck = this.#now();
    try {
      const watched = await this.#watched();
      const windows = await this.#windows([...new Set(watched.map((w) => w.ref))]);
      if (this.#o.account() !== key) return; // signed out or switched meanwhile
      this.#record(key, watched, windows);
    } catch (error) {
      this.#o.log('Checking availability', error);
    }
  }

  /** Every title of both queues (available and saved parts), in the format each is queued in. */
  async #watched(): Promise<Watched[]> {
    const watched: Watched[] = [];
    for (const kind of QUEUES) {
      const queue = await this.#o.client.queue(kind, { max: QUEUE_LIMIT }).catch(notFoundAsNull); // a service without a disc queue
      for (const item of queue?.items ?? [])
        watched.push({
          ref: item.ref,
          path: titlePath(item.ref),
          title: item.title,
          queue: kind,
          format: kind === 'instant' ? 'instant' : item.format,
        });
    }
    return watched;
  }

  /** Each title's windows (null: the catalog no longer has it), a few at a time. */
  async #windows(refs: string[]): Promise<Map<string, TitleDetail | null>> {
    const details = await inParallel(refs, CONCURRENCY, (ref) => this.#o.client.titleAvailability(ref));
    return new Map(refs.map((ref, i) => [ref, details[i]!]));
  }

  #record(key: string, watched: Watched[], windows: Map<string, TitleDetail | null>): void {
    const nowS = Math.floor(this.#now() / 1000);
    const { leavingDays, notifications } = this.settings();
    const before = this.#account();
    const observed: Record<string, Observation> = {};
    const drafts: AlertDraft[] = [];
    for (const item of watched) {
      const after = observe(windows.get(item.ref)?.availability ?? null, item.format, nowS);
      observed[watchKey(item)] = after;
      drafts.push(...decide(item, before.observed[watchKey(item)], after, nowS, leavingDays));
    }
    const news = fresh(drafts, new Set(before.seen), this.#now());
    this.#update(key, (acc) => ({
      observed,
      seen: keepNewest([...acc.seen, ...news.map((a) => a.id)], SEEN_KEPT),
      alerts: keepNewest([...acc.alerts, ...news], ALERTS_KEPT),
    }));
    if (news.length > 0)
      this.#o.notify({ alerts: this.#addressed(news), unread: this.list().unread, notify: notifications });
  }
}

/** A 404 read as "there is none"; any other failure stops the check (the next one tries again). */
function notFoundAsNull(error: unknown): null {
  if (error instanceof ServiceError && error.appError.kind === 'not_found') return null;
  throw error;
}

/** A base URL's origin ('' when it is none: the paths are then answered as they are). */
function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return '';
  }
}
