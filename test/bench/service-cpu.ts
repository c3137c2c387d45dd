/**
 * The CPU this process spent while `measure` ran, counted from `warmupMs` after it began (the
 * load client's warm-up) to its end: the service's own CPU over the measured window when the
 * service runs in this process and the load comes from another (context.ts).
 */
export async function cpuOverWindow<T>(warmupMs: number, measure: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  let start: NodeJS.CpuUsage | undefined;
  const timer = setTimeout(() => (start = process.cpuUsage()), warmupMs);
  try {
    const result = await measure();
    const used = process.cpuUsage(start);
    return { result, cpuMs: start ? (used.user + used.system) / 1000 : Number.NaN };
  } finally {
    clearTimeout(timer);
  }
}
