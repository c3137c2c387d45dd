import type { EventName, Events } from '../../../shared/ipc.ts';
import type { ErrorLog } from '../errors.ts';

/** The core's events (shared/ipc.ts `Events`) and their listeners; a failing listener is logged, never fatal. */
export class CoreEvents {
  readonly #listeners = new Map<EventName, Set<(payload: never) => void>>();

  constructor(private readonly log: ErrorLog) {}

  emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      try {
        (listener as (p: Events[E]) => void)(payload);
      } catch (error) {
        this.log(`A listener of ${event} failed`, error);
      }
    }
  }

  /** Subscribes; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    const entry = listener as (payload: never) => void;
    set.add(entry);
    return () => void set.delete(entry);
  }
}
