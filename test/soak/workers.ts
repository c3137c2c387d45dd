import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TSX } from '../helpers/service-process.ts';
import { merge } from './histogram.ts';
import type { FromWorker, WorkerConfig, WorkerReport } from './mix.ts';

/** The soak's load: worker processes (load-worker.ts) sharing the connections, asked for counts together. */
export interface LoadWorkers {
  /** Every worker's counts since the last call, added up. */
  report(): Promise<WorkerReport>;
  /** Stops the load; the counts since the last report. */
  stop(): Promise<WorkerReport>;
}

const WORKER = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

export async function startWorkers(
  count: number,
  config: Omit<WorkerConfig, 'connections' | 'firstConnection'> & { connections: number },
): Promise<LoadWorkers> {
  const children: ChildProcess[] = [];
  const per = Math.ceil(config.connections / count);
  for (let w = 0; w < count; w++) {
    const child = fork(WORKER, [], { execArgv: ['--import', TSX] });
    children.push(child);
    await next(child, 'ready');
    const firstConnection = w * per;
    child.send({
      type: 'start',
      config: { ...config, firstConnection, connections: Math.min(per, config.connections - firstConnection) },
    });
  }
  const ask = async (type: 'report' | 'stop'): Promise<WorkerReport> => {
    const reports = await Promise.all(
      children.map(async (child) => {
        const answer = next(child, type === 'report' ? 'report' : 'stopped');
        child.send({ type });
        return (await answer).report;
      }),
    );
    return reports.reduce(add);
  };
  return { report: () => ask('report'), stop: () => ask('stop') };
}

function next<T extends FromWorker['type']>(child: ChildProcess, type: T): Promise<Extract<FromWorker, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: FromWorker) => {
      if (m.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m as Extract<FromWorker, { type: T }>);
    };
    const onExit = (code: number | null) =>
      reject(new Error(`a soak load worker exited (${code}) while waiting for "${type}"`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function add(a: WorkerReport, b: WorkerReport): WorkerReport {
  const statuses = { ...a.statuses };
  for (const [code, n] of Object.entries(b.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const histogram = { ...a.histogram };
  merge(histogram, b.histogram);
  return {
    requests: a.requests + b.requests,
    errors: a.errors + b.errors,
    statuses,
    histogram,
    samples: [...a.samples, ...b.samples].slice(0, 10),
    cpuSeconds: a.cpuSeconds + b.cpuSeconds,
  };
}
