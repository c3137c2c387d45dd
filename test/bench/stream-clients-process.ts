import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StreamAnswer, StreamCommand } from './stream-clients.ts';

/** The change-stream clients' process (stream-clients.ts): one command at a time, its answer awaited. */
export interface StreamClients {
  send<T extends StreamAnswer['type']>(command: StreamCommand, expect: T): Promise<Extract<StreamAnswer, { type: T }>>;
  stop(): void;
}

/** Loopback source addresses the streams are spread over, this many streams each (the service allows 256 per address). */
export const STREAMS_PER_ADDRESS = 200;

/** The loopback address of the `i`th stream: 127.0.0.2 onwards, so that none shares the bench's own 127.0.0.1. */
export function sourceAddress(i: number): string {
  const k = Math.floor(i / STREAMS_PER_ADDRESS);
  return `127.0.${Math.floor(k / 250)}.${(k % 250) + 2}`;
}

export async function startStreamClients(): Promise<StreamClients> {
  const child = fork(fileURLToPath(new URL('./stream-clients.ts', import.meta.url)), [], { stdio: 'inherit' });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`stream clients exited (${code})`)));
  });
  let queue = Promise.resolve();
  const ask = (command: StreamCommand) =>
    new Promise<StreamAnswer>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`stream clients exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (a: StreamAnswer) => {
        child.off('exit', onExit);
        if (a.type === 'error') reject(new Error(`stream clients: ${a.message}`));
        else resolve(a);
      });
      child.send(command);
    });
  return {
    send(command, expect) {
      const answer = queue.then(() => ask(command));
      queue = answer.then(
        () => undefined,
        () => undefined,
      );
      return answer.then((a) => {
        if (a.type !== expect) throw new Error(`stream clients answered ${a.type}, not ${expect}`);
        return a as Extract<StreamAnswer, { type: typeof expect }>;
      });
    },
    stop: () => void (child.connected ? child.kill() : undefined),
  };
}
