import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The part of V8's `.cpuprofile` that self time is summed from. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
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

/**
 * With `--cpu-prof DIR`, runs `measure` with V8's CPU profiler on this process (where the service
 * runs, context.ts) from `skipMs` after it starts until it ends: the measured window after a
 * warm-up. Writes `DIR/<label>-<time>.cpuprofile` (open it in Chrome DevTools) and logs its top
 * self-time frames and the event loop's delay over the same window. Without a directory it only
 * runs `measure`. The profiler costs CPU: figures of a profiled run are not the row's figures.
 */
export async function profiled<T>(
  dir: string,
  label: string,
  log: (text: string) => void,
  measure: () => Promise<T>,
  skipMs = 0,
): Promise<T> {
  if (!dir) return measure();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const start = async () => {
    delay.enable();
    await session.post('Profiler.start');
  };
  const timer = skipMs > 0 ? setTimeout(() => void start(), skipMs) : undefined;
  if (!timer) await start();
  try {
    return await measure();
  } finally {
    clearTimeout(timer);
    delay.disable();
    const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    session.disconnect();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${label}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    log(`  cpu profile: ${file}`);
    const ms = (ns: number) => (ns / 1e6).toFixed(1);
    // Not the histogram's max: over a stream that never yields for long it still read ≈ the whole window (one bogus sample).
    log(
      `  event loop delay: p50 ${ms(delay.percentile(50))} ms, p99 ${ms(delay.percentile(99))} ms, p99.9 ${ms(delay.percentile(99.9))} ms`,
    );
    for (const t of topSelfTime(profile, TOP))
      log(`    ${t.percent.toFixed(1).padStart(5)}%  ${t.ms.toFixed(0)} ms  ${t.frame}`);
  }
}

/** The frames with the most self time (samples weighted by their time deltas), merged by name and place; shares are of busy time. */
export function topSelfTime(profile: CpuProfile, count: number): SelfTime[] {
  const frameOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? ` ${url.replace(/^.*\/(service|test|node_modules)\//, '$1/')}:${lineNumber + 1}` : '';
    frameOf.set(node.id, `${functionName || '(anonymous)'}${where}`);
  }
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
