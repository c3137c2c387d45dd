import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Consumer, FromClient, Scenario, ScenarioResult } from './scenarios.ts';

export interface LoadClient {
  run(scenario: Scenario): Promise<ScenarioResult>;
  stop(): void;
}

/** The load client (client.ts) in its own process, so client and server each get a core. */
export async function startClient(consumer: Consumer): Promise<LoadClient> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./client.ts', import.meta.url)), [], {
    env: { ...process.env, BENCH_CONSUMER: JSON.stringify({ key: consumer.key, secret: consumer.secret }) },
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', (m: FromClient) => (m.type === 'ready' ? resolve() : reject(new Error('client: unexpected message'))));
    child.once('exit', (code) => reject(new Error(`client exited (${code})`)));
  });
  const run = (scenario: Scenario) =>
    new Promise<ScenarioResult>((resolve, reject) => {
      const onMessage = (m: FromClient) => {
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
  return { run, stop: () => void (child.connected ? child.send({ type: 'exit' }) : child.kill()) };
}
