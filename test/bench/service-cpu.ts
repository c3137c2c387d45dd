/** The edges of a load run's measured window, as the load client reports them. */
export type WindowEdge = 'start' | 'end';

/**
 * The CPU this process spent inside the measured window of the load run `measure` starts (it
 * passes on the client's window edges): the service's own CPU over the window when the service
 * runs in this process and the load comes from others (context.ts).
 */
export async function cpuOverWindow<T>(measure: (onWindow: (edge: WindowEdge) => void) => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  let start: NodeJS.CpuUsage | undefined;
  let used: NodeJS.CpuUsage | undefined;
  const result = await measure((edge) => {
    if (edge === 'start') start = process.cpuUsage();
    else if (start) used = process.cpuUsage(start);
  });
  return { result, cpuMs: used ? (used.user + used.system) / 1000 : Number.NaN };
}
