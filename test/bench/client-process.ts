import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { summarize } from './load.ts';
import type { Consumer, FromClient, Scenario, ScenarioResult } from './scenarios.ts';
import type { WindowEdge } from './service-cpu.ts';

export interface LoadClient {
  /** Client processes a run is spread over. */
  readonly processes: number;
  /** `onWindow`: the measured window opens (the first process's) and closes (the last process's). */
  run(scenario: Scenario, onWindow?: (edge: WindowEdge) => void): Promise<ScenarioResult>;
  /** These processes and one more started beside them (the client setup grows one at a time). */
  withOneMore(): Promise<GrownClient>;
  stop(): void;
}

/** A load client grown by one process; `stopAdded` stops that one alone (the others belong to the client it grew from). */
export interface GrownClient extends LoadClient {
  stopAdded(): void;
}

/**
 * The load client (client.ts) in `count` processes of their own. A scenario's connections (and,
 * for a run of each path once, its paths) are dealt out among them; they start together and their
 * results are merged: requests and rates added, latencies pooled for the percentiles.
 */
export async function startClients(count: number): Promise<LoadClient> {
  return clientOf(await Promise.all(Array.from({ length: count }, startChild)));
}

function clientOf(children: ChildProcess[]): LoadClient {
  return {
    processes: children.length,
    async run(scenario, onWindow) {
      const shares = dealOut(scenario, children.length);
      let open = 0;
      const edge = (e: WindowEdge) => {
        if (e === 'start' && open++ === 0) onWindow?.('start');
        if (e === 'end' && --open === 0) onWindow?.('end');
      };
      return merge(scenario.name, await Promise.all(shares.map((share, i) => runIn(children[i]!, share, edge))));
    },
    async withOneMore() {
      const added = await startChild();
      return { ...clientOf([...children, added]), stopAdded: () => stopChild(added) };
    },
    stop: () => children.forEach(stopChild),
  };
}

/** One client process signing with `consumer` unless a scenario names another (the older entry point). */
export async function startClient(consumer: Consumer): Promise<LoadClient> {
  const client = await startClients(1);
  return {
    processes: 1,
    run: (scenario, onWindow) => client.run({ consumer, ...scenario }, onWindow),
    withOneMore: () => client.withOneMore(),
    stop: () => client.stop(),
  };
}

/** Asks a process to exit, or kills it; safe to repeat (a process is shared by the clients grown from it). */
function stopChild(child: ChildProcess): void {
  // With a callback, a channel that closed meanwhile is an error passed here, not an 'error' event.
  if (child.connected) child.send({ type: 'exit' }, (error) => void (error && child.kill()));
  else child.kill();
}

async function startChild(): Promise<ChildProcess> {
  // 'advanced': the latencies come back as a Float64Array, not as JSON text.
  const child = fork(fileURLToPath(new URL('./client.ts', import.meta.url)), [], { serialization: 'advanced' });
  await new Promise<void>((resolve, reject) => {
    child.once('message', (m: FromClient) =>
      m.type === 'ready' ? resolve() : reject(new Error('client: unexpected message')),
    );
    child.once('exit', (code) => reject(new Error(`client exited (${code})`)));
  });
  return child;
}

/** Each process's part: connections split as evenly as they go (a single connection stays in one process). */
function dealOut(scenario: Scenario, processes: number): Scenario[] {
  const used = Math.max(1, Math.min(processes, scenario.connections));
  return Array.from({ length: used }, (_, i) => ({
    ...scenario,
    connections: Math.floor(scenario.connections / used) + (i < scenario.connections % used ? 1 : 0),
    ...(scenario.once
      ? {
          paths: scenario.paths.filter((_, k) => k % used === i),
          warmupPaths: scenario.warmupPaths?.filter((_, k) => k % used === i),
        }
      : {}),
  }));
}

function runIn(child: ChildProcess, scenario: Scenario, onWindow: (edge: WindowEdge) => void): Promise<ScenarioResult> {
  return new Promise<ScenarioResult>((resolve, reject) => {
    const onMessage = (m: FromClient) => {
      if (m.type === 'window') onWindow(m.edge);
      if (m.type !== 'result') return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m.result);
    };
    const onExit = (code: number | null) => reject(new Error(`client exited during "${scenario.name}" (${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send({ type: 'run', scenario });
  });
}

/** One result from the processes' results: their windows coincide (started together, same warm-up and duration). */
function merge(name: string, parts: ScenarioResult[]): ScenarioResult {
  if (parts.length === 1) return parts[0]!;
  const latencies = new Float64Array(parts.reduce((n, p) => n + p.latencies.length, 0));
  let at = 0;
  for (const p of parts) {
    latencies.set(p.latencies, at);
    at += p.latencies.length;
  }
  latencies.sort();
  const statuses: Record<string, number> = {};
  for (const p of parts) for (const [code, n] of Object.entries(p.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const seconds = Math.max(...parts.map((p) => p.seconds));
  const bytes = parts.reduce((n, p) => n + p.bytesPerResponse * p.requests, 0);
  const merged = summarize(
    latencies,
    seconds,
    statuses,
    parts.reduce((n, p) => n + p.errors, 0),
    bytes,
    parts[0]!.contentEncoding,
  );
  // Each process's rate over its own window, added: the windows are the same seconds give or take a timer tick.
  const rps = parts.reduce((n, p) => n + p.rps, 0);
  return { ...merged, rps, name, clientCpu: parts.reduce((n, p) => n + p.clientCpu, 0) };
}
