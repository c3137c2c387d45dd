/**
 * The S3 writers in a process of their own (forked by queue-writers-process.ts), so that their
 * signing and HTTP work does not share the service's event loop: one message in, one result out.
 */
import { runWriters, type WriteTarget, type Writer, type WritersResult } from './queue-writers.ts';

export interface WritersJob {
  target: WriteTarget;
  writers: Writer[];
  titleIds: number[];
  warmupMs: number;
  durationMs: number;
}

export type FromWriters =
  | { type: 'ready' }
  | { type: 'result'; result: WritersResult }
  | { type: 'error'; message: string };

process.once('message', (job: WritersJob) => {
  runWriters(job.target, job.writers, job.titleIds, job.warmupMs, job.durationMs).then(
    (result) => process.send!({ type: 'result', result } satisfies FromWriters, () => process.exit(0)),
    (error: unknown) =>
      process.send!(
        { type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies FromWriters,
        () => process.exit(1),
      ),
  );
});
process.send!({ type: 'ready' } satisfies FromWriters);
