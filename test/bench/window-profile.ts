import { writeFileSync, mkdirSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import type { WindowEdge } from './service-cpu.ts';

/** A CPU profile of this process over a load run's measured window (`--cpu-prof-dir DIR`). */
export interface WindowProfiler {
  onWindow(edge: WindowEdge): void;
  /** The .cpuprofile file written once the window ended (undefined when it never started). */
  written(): Promise<string | undefined>;
}

/**
 * Starts V8's sampling profiler at the window's start and writes `DIR/<name>-<time>.cpuprofile`
 * at its end: the service runs in the bench's process (context.ts), so this is the service's own
 * CPU over exactly the measured requests (plus the bench's small share of idle bookkeeping).
 */
export function windowProfiler(dir: string, name: string): WindowProfiler {
  const session = new Session();
  session.connect();
  let done: Promise<string | undefined> = Promise.resolve(undefined);
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
    );
  return {
    onWindow(edge) {
      if (edge === 'start') {
        done = post('Profiler.enable')
          .then(() => post('Profiler.setSamplingInterval', { interval: 100 }))
          .then(() => post('Profiler.start'))
          .then(() => undefined);
        return;
      }
      done = done.then(async () => {
        const { profile } = (await post('Profiler.stop')) as { profile: object };
        mkdirSync(dir, { recursive: true });
        const file = join(dir, `${name.replace(/[^\w-]+/g, '_')}-${Date.now()}.cpuprofile`);
        writeFileSync(file, JSON.stringify(profile));
        session.disconnect();
        return file;
      });
    },
    written: () => done,
  };
}
