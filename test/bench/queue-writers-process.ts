import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromWriters, WritersJob } from './queue-writers-child.ts';
import type { WritersResult } from './queue-writers.ts';

/** Runs the S3 writers (queue-writers.ts) in a child process and waits for their figures. */
export function runWritersElsewhere(job: WritersJob): Promise<WritersResult> {
  const child = fork(fileURLToPath(new URL('./queue-writers-child.ts', import.meta.url)), []);
  return new Promise<WritersResult>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`queue writers exited (${code})`));
    child.once('exit', onExit);
    child.on('message', (m: FromWriters) => {
      if (m.type === 'ready') child.send(job);
      if (m.type === 'error') reject(new Error(`queue writers: ${m.message}`));
      if (m.type !== 'result') return;
      child.off('exit', onExit);
      resolve(m.result);
    });
  });
}
