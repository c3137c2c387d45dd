/** The edges of a load run's measured window, as the load client reports them. */
export type WindowEdge = 'start' | 'end';

type Measure<T> = (onWindow: (edge: WindowEdge) => void) => Promise<T>;

/**
 * The CPU this process spent inside the measured window of the load run `measure` starts (it
 * passes the client's window edges on): the service's own CPU over the window when the service
 * runs in this process and the load comes from others (context.ts). The older form,
 * `cpuOverWindow(warmupMs, measure)`, starts counting `warmupMs` after `measure` begins instead.
 */
export async function cpuOverWindow<T>(measure: Measure<T>): Promise<{ result: T; cpuMs: number }>;
export async function cpuOverWindow<T>(
  warmupMs: number,
  measure: () => Promise<T>,
): Promise<{ result: T; cpuMs: number }>;
export async function cpuOverWindow<T>(
  first: number | Measure<T>,
  timed?: () => Promise<T>,
): Promise<{ result: T; cpuMs: number }> {
  let start: NodeJS.CpuUsage | undefined;
  let used: NodeJS.CpuUsage | undefined;
  let timer: NodeJS.Timeout | undefined;
  const onWindow = (edge: WindowEdge) => {
    if (edge === 'start') start = process.cpuUsage();
    else if (start) used = process.cpuUsage(start);
  };
  try {
    let result: T;
    if (typeof first === 'number') {
      timer = setTimeout(() => onWindow('start'), first);
      result = await timed!();
      onWindow('end');
    } else result = await first(onWindow);
    return { result, cpuMs: used ? (used.user + used.system) / 1000 : Number.NaN };
  } finally {
    clearTimeout(timer);
  }
}
