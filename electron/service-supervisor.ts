import type { EventName, Events } from '../shared/ipc.ts';
import type { AppCore, EmbeddedServiceInfo } from './core/app-core.ts';
import { backoffDelay } from './core/transport/index.ts';

/**
 * Keeps the embedded service running: when its process exits (a crash, a kill) it is started
 * again on the same port and data folder, at once and then with backoff while it keeps failing,
 * and every change is told as a 'service.changed' event. Plain Node: the host passes `start`,
 * its own way of spawning the process (child_process in the web host, utilityProcess in Electron).
 */

/** One run of the service process, ready to answer. */
export interface ServiceRun extends EmbeddedServiceInfo {
  /** The loopback port it listens on. */
  port: number;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  pid: number | undefined;
  stop(): Promise<void>;
}

export type ServiceChange = Events['service.changed'];

export interface SupervisorOptions {
  /** Starts the service on `port`; resolves once it is ready. */
  start(port: number): Promise<ServiceRun>;
  /**
   * The port to ask for first (default 0: any free one); when that start fails the service is
   * started on any free port instead. The port of the first run is kept for every restart.
   */
  port?: number;
  /** Delay of the first retry after a failed restart, doubling to `maxMs` (defaults 500 ms, 30 s). */
  backoff?: { baseMs?: number; maxMs?: number };
  /** A run that lasts this long counts as healthy: its exit restarts at once; a shorter one backs off (default 60 s). */
  healthyAfterMs?: number;
  log?: (message: string) => void;
}

export interface ServiceSupervisor extends EmbeddedServiceInfo {
  /** The port every run listens on. */
  readonly port: number;
  /** The current run's process id. */
  readonly pid: number | undefined;
  /** Hears "stopped, restarting" and "back"; returns the unsubscribe. */
  onChange(listener: (change: ServiceChange) => void): () => void;
  /** From now on an exit is final (the app is quitting; the service still serves its last writes until `stop`). */
  endRestarts(): void;
  /** Stops the service for good (no restart follows). */
  stop(): Promise<void>;
}

/** Starts the service and supervises it until `stop()`. */
export async function superviseService(options: SupervisorOptions): Promise<ServiceSupervisor> {
  const log = options.log ?? (() => {});
  const listeners = new Set<(change: ServiceChange) => void>();
  const tell = (change: ServiceChange) => {
    for (const listener of listeners) listener(change);
  };
  let run = await firstRun(options, log);
  const port = run.port;
  let failures = 0;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let starting: Promise<void> | null = null;
  let startedAt = Date.now();

  const watch = (current: ServiceRun) => {
    void current.exited.then(() => {
      if (stopping || current !== run) return;
      // A run that died young counts as a failure too: a crash loop backs off instead of spinning.
      failures = Date.now() - startedAt >= (options.healthyAfterMs ?? 60_000) ? 0 : failures + 1;
      log(`The service stopped; starting it again on port ${port}.`);
      tell({ state: 'restarting' });
      schedule();
    });
  };

  const schedule = () => {
    const delay =
      failures === 0
        ? 0
        : backoffDelay(failures, { baseMs: options.backoff?.baseMs ?? 500, maxMs: options.backoff?.maxMs ?? 30_000 });
    timer = setTimeout(() => {
      timer = undefined;
      starting = restart().finally(() => (starting = null));
    }, delay);
  };

  const restart = async () => {
    try {
      const next = await options.start(port);
      if (stopping) return void (await next.stop());
      run = next;
      startedAt = Date.now();
      watch(next);
      log(`The service is back on port ${port}.`);
      tell({ state: 'back' });
    } catch (error) {
      if (stopping) return;
      failures++;
      log(
        `The service could not start again (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); trying again.`,
      );
      schedule();
    }
  };

  watch(run);
  return {
    get url() {
      return run.url;
    },
    get consumer() {
      return run.consumer;
    },
    get demoSignIn() {
      return run.demoSignIn;
    },
    port,
    get pid() {
      return run.pid;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    endRestarts() {
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await starting;
      await run.stop();
    },
  };
}

/** The first run: on the port asked for, else (taken meanwhile, refused) on any free one. */
async function firstRun(options: SupervisorOptions, log: (message: string) => void): Promise<ServiceRun> {
  const wanted = options.port ?? 0;
  if (wanted === 0) return options.start(0);
  try {
    return await options.start(wanted);
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    log(`The service could not start on port ${wanted} (${why}); starting it on a free port.`);
    return options.start(0);
  }
}

/** The core as a host relays it, with the supervisor's 'service.changed' among its events. */
export function withServiceEvents(core: AppCore, supervisor: Pick<ServiceSupervisor, 'onChange'>): AppCore {
  return {
    dispatch: (name, input) => core.dispatch(name, input),
    close: () => core.close(),
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void) {
      if (event === 'service.changed') return supervisor.onChange(listener as (change: ServiceChange) => void);
      return core.on(event, listener);
    },
  };
}
