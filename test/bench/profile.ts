import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { WindowEdge } from './service-cpu.ts';

/** A node of V8's `.cpuprofile` call tree. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** The part of V8's `.cpuprofile` that self and inclusive time are summed from. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A frame as the logs name it: function, then the file below service/, test/ or node_modules/ and its line. */
export function frameLabel(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? ` ${url.replace(/^.*\/(service|test|node_modules)\//, '$1/')}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'}${where}`;
}

/** One frame's self time and its share of the busy samples (all but `(idle)`). */
export interface SelfTime {
  frame: string;
  ms: number;
  percent: number;
}

/** How many frames the log prints. */
const TOP = 12;
/** Sampling interval in µs: finer than V8's default 1 ms, for windows of a few seconds. */
const SAMPLING_US = 250;

/** A profile under way: `stop` ends it, writes the file and logs its top frames. */
interface RunningProfile {
  stop(): Promise<void>;
}

/**
 * Starts V8's CPU profiler on this process (where the service runs, context.ts) and the event
 * loop's delay histogram. `stop` writes `DIR/<label>-<time>.cpuprofile` (open it in Chrome
 * DevTools) and logs its top self-time frames and the loop's delay over the same span.
 */
async function startProfile(dir: string, label: string, log: (text: string) => void): Promise<RunningProfile> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await session.post('Profiler.start');
  return {
    async stop() {
      delay.disable();
      const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
      session.disconnect();
      mkdirSync(dir, { recursive: true });
      const file = join(
        dir,
        `${label.replace(/[^\w-]+/g, '_')}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`,
      );
      writeFileSync(file, JSON.stringify(profile));
      log(`  cpu profile: ${file}`);
      const ms = (ns: number) => (ns / 1e6).toFixed(1);
      // Not the histogram's max: over a stream that never yields for long it still read ≈ the whole window (one bogus sample).
      log(
        `  event loop delay: p50 ${ms(delay.percentile(50))} ms, p99 ${ms(delay.percentile(99))} ms, p99.9 ${ms(delay.percentile(99.9))} ms`,
      );
      for (const t of topSelfTime(profile, TOP))
        log(`    ${t.percent.toFixed(1).padStart(5)}%  ${t.ms.toFixed(0)} ms  ${t.frame}`);
    },
  };
}

/**
 * With `--cpu-prof DIR`, runs `measure` with the profiler on from `skipMs` after it starts until it
 * ends: the measured window after a warm-up. Without a directory it only runs `measure`. The
 * profiler costs CPU: figures of a profiled run are not the row's figures.
 */
export async function profiled<T>(
  dir: string,
  label: string,
  log: (text: string) => void,
  measure: () => Promise<T>,
  skipMs = 0,
): Promise<T> {
  if (!dir) return measure();
  let running: Promise<RunningProfile> | undefined;
  const timer = setTimeout(() => {
    running = startProfile(dir, label, log);
  }, skipMs);
  try {
    return await measure();
  } finally {
    clearTimeout(timer);
    await (await running)?.stop();
  }
}

/**
 * The same for a load run that reports its measured window's edges (context.ts's `onWindow`):
 * the profile covers exactly the measured requests. `done` resolves once it is written.
 */
export function windowProfiled(dir: string, label: string, log: (text: string) => void) {
  let running: Promise<RunningProfile> | undefined;
  let done: Promise<void> = Promise.resolve();
  return {
    onWindow(edge: WindowEdge): void {
      if (!dir) return;
      if (edge === 'start') running = startProfile(dir, label, log);
      else done = (running ?? Promise.resolve(undefined)).then((r) => r?.stop());
    },
    done: () => done,
  };
}

/** The frames with the most self time (samples weighted by their time deltas), merged by name and place; shares are of busy time. */
export function topSelfTime(profile: CpuProfile, count: number): SelfTime[] {
  const frameOf = new Map(profile.nodes.map((node) => [node.id, frameLabel(node)]));
  const selfUs = new Map<string, number>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i + 1] ?? 0;
    const frame = frameOf.get(id) ?? '?';
    selfUs.set(frame, (selfUs.get(frame) ?? 0) + us);
    if (frame !== '(idle)') totalUs += us;
  });
  return [...selfUs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, us]) => ({ frame, ms: us / 1000, percent: (100 * us) / Math.max(1, totalUs) }));
}
