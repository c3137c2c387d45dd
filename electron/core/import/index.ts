import type { OperationInput } from '../../../shared/ipc.ts';
import type { ImportCandidate, ImportProgress } from '../../../shared/import-export.ts';
import type { QueueKind } from '../../../shared/models.ts';
import type { Client } from '../client/index.ts';
import type { Operations } from '../api/index.ts';
import type { QueueSync } from '../queue/index.ts';
import { ServiceError, type Transport } from '../types.ts';
import { applyImport, undoImport } from './apply.ts';
import { decide } from './match-decide.ts';
import { CatalogLookup } from './match-lookup.ts';
import { readImportFile } from './read-file.ts';

/**
 * The import room's door: a list read from a file (read-file.ts and its readers), matched to the
 * catalog (match-lookup.ts finds candidates, match-decide.ts decides), reviewed by the person in
 * the app, then applied (apply.ts) or undone. One import runs at a time; 'import.cancel' stops it.
 */
export { readImportFile, IMPORT_ENTRIES_MAX } from './read-file.ts';
export { decide } from './match-decide.ts';
export { CatalogLookup } from './match-lookup.ts';

export type ImportOperationName =
  | 'import.read'
  | 'import.match'
  | 'import.search'
  | 'import.apply'
  | 'import.undo'
  | 'import.cancel';

export interface ImportContext {
  client: Client;
  sync: QueueSync;
  transport: Transport;
  /** The active profile's base URL. */
  baseUrl: () => string;
  progress: (p: ImportProgress) => void;
  /** Unix milliseconds (availability windows are compared with it). */
  now?: () => number;
}

/** The run under way: its stop signal, and the queue its change is being made to. */
interface Run {
  controller: AbortController;
  kind: QueueKind | null;
}

export function importOperations(ctx: ImportContext): Pick<Operations, ImportOperationName> {
  const now = () => Math.floor((ctx.now ?? Date.now)() / 1000);
  const lookup = new CatalogLookup({ transport: ctx.transport, baseUrl: ctx.baseUrl, now });
  /** Candidates seen by this import (matches, searches), by ref: where each can go without asking again. */
  const seen = new Map<string, ImportCandidate>();
  let run: Run | null = null;

  const start = (kind: QueueKind | null): Run => {
    run?.controller.abort();
    const started = { controller: new AbortController(), kind };
    run = started;
    return started;
  };
  const finish = (r: Run) => {
    if (run === r) run = null;
  };
  const remember = (candidates: ImportCandidate[]) => {
    for (const c of candidates) seen.set(c.ref, c);
    return candidates;
  };
  const placementOf = async (ref: string, kind: QueueKind) => {
    const c = seen.get(ref) ?? remember([await lookup.title(ref)])[0]!;
    return { title: c.title, placement: c.placement[kind] };
  };

  return {
    'import.read': ({ text }) => {
      seen.clear();
      return Promise.resolve(readImportFile(text));
    },
    'import.match': async ({ entries }) => {
      const r = start(null);
      let done = 0;
      const total = entries.length;
      ctx.progress({ phase: 'matching', done, total, finished: false });
      try {
        const found = await lookup.candidates(
          entries,
          (n) => ctx.progress({ phase: 'matching', done: (done += n), total, finished: false }),
          r.controller.signal,
        );
        return entries.map((e, i) => decide({ ...e, line: i + 1, rating: null, listed: true }, remember(found[i]!)));
      } catch (error) {
        if (r.controller.signal.aborted)
          throw new ServiceError({ kind: 'invalid', message: 'You stopped the matching: nothing was imported.' });
        throw error;
      } finally {
        ctx.progress({ phase: 'matching', done, total, finished: true });
        finish(r);
      }
    },
    'import.search': async ({ term }) => remember(await lookup.search(term)),
    'import.apply': async (input: OperationInput<'import.apply'>) => {
      const r = start(input.kind);
      try {
        return await applyImport(
          {
            client: ctx.client,
            sync: ctx.sync,
            placementOf,
            progress: ctx.progress,
            cancelled: () => r.controller.signal.aborted,
          },
          input,
        );
      } finally {
        finish(r);
      }
    },
    'import.undo': async (input) => undoImport({ client: ctx.client, sync: ctx.sync, progress: ctx.progress }, input),
    'import.cancel': async () => {
      const r = run;
      if (!r) return { cancelled: false };
      r.controller.abort();
      if (r.kind) await ctx.sync.cancelBulk(r.kind);
      return { cancelled: true };
    },
  };
}
