import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { operations } from '../../../shared/ipc.ts';

/**
 * The queue edits not yet applied by the service, in the order the user made them, kept in one
 * JSON file so they survive a restart while the service is unreachable. Every change rewrites the
 * whole file to a temp name, fsyncs it and renames it into place: a crash leaves the old list or
 * the new one, never half of one. Writes are chained, so the file always ends up as the last list.
 * A file that cannot be read as an outbox is set aside (`<file>.corrupt-<ms>`) and reported, and
 * the app starts with an empty outbox.
 */

export interface OutboxEntry {
  id: string;
  /** Whose queue: `${profileId}:${userId}`; only that account replays it. */
  account: string;
  intent: QueueIntent;
  /** Epoch ms. */
  queuedAt: number;
  /** The base URL the intent's refs were made on (absent in files written before it was kept). */
  baseUrl?: string;
  /** Set when the service refused the edit: kept, not sent again until the person retries or discards it. */
  refused?: Refusal;
}

/** Why the service did not make an edit, in words, and when. */
export interface Refusal {
  reason: string;
  status?: number;
  at: number;
}

export interface QueueOutbox {
  readonly path: string;
  /** In order, oldest first. */
  entries(): readonly OutboxEntry[];
  /** Appends and resolves once the file holds it. */
  append(entry: OutboxEntry): Promise<void>;
  /** Removes by id (no-op for an unknown id) and resolves once the file no longer holds it. */
  remove(id: string): Promise<void>;
  /** Replaces the entry of that id (in place: its turn is kept) and resolves once the file holds it. */
  update(id: string, change: (entry: OutboxEntry) => OutboxEntry): Promise<void>;
  /** Rewrites every entry (a change of the service's address): saved only when one changed. */
  mapEntries(change: (entry: OutboxEntry) => OutboxEntry): Promise<void>;
  /** Resolves when every write so far is on disk. */
  flushed(): Promise<void>;
}

/** The title's name, kept for the words of a refusal. */
const name = z.string().max(500).optional();
const replaceInput = operations['queue.replace'].input;
/** Each intent is its operation's input in shared/ipc.ts, with `op` and the title's name. */
const intentSchema = z.discriminatedUnion('op', [
  operations['queue.move'].input.extend({ op: z.literal('move'), name }),
  operations['queue.add'].input.extend({ op: z.literal('add'), name }),
  operations['queue.remove'].input.extend({ op: z.literal('remove'), name }),
  replaceInput.extend({ op: z.literal('replace'), base: replaceInput.shape.refs.optional(), name }),
]);

/** One edit, as the user meant it: replayed against whatever the queue is when it goes out. */
export type QueueIntent = z.infer<typeof intentSchema>;

/**
 * "Make the available part `refs`, in that order": bulk moves, sorts, removes and undo. `base` is
 * the available order the user saw when asking (absent when none was read): against it the
 * desired order is rebased onto whatever the queue is when the intent goes out (shared/pure's
 * `rebaseOrder`).
 */
export type ReplaceIntent = Extract<QueueIntent, { op: 'replace' }>;

const entrySchema = z.object({
  id: z.string().min(1),
  account: z.string(),
  intent: intentSchema,
  queuedAt: z.number(),
  baseUrl: z.string().max(2048).optional(),
  refused: z.object({ reason: z.string().max(2000), status: z.number().int().optional(), at: z.number() }).optional(),
});
const fileSchema = z.object({ version: z.literal(1), entries: z.array(entrySchema) });

export function newEntryId(): string {
  return `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
}

export function openQueueOutbox(path: string, onWarning: (message: string) => void = () => {}): QueueOutbox {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let list: OutboxEntry[] = load(path, onWarning);
  let chain: Promise<void> = Promise.resolve();

  const save = (): Promise<void> => {
    const snapshot = JSON.stringify({ version: 1, entries: list }, null, 1);
    const write = chain.then(() => writeAtomically(path, snapshot));
    // A failed write must not block the next one (which rewrites the whole list anyway).
    chain = write.catch((error: unknown) => onWarning(`Could not save the queue outbox: ${String(error)}`));
    return write;
  };

  return {
    path,
    entries: () => list,
    append(entry) {
      list = [...list, entry];
      return save();
    },
    remove(id) {
      if (!list.some((e) => e.id === id)) return chain;
      list = list.filter((e) => e.id !== id);
      return save();
    },
    update(id, change) {
      if (!list.some((e) => e.id === id)) return chain;
      list = list.map((e) => (e.id === id ? change(e) : e));
      return save();
    },
    mapEntries(change) {
      const next = list.map(change);
      if (JSON.stringify(next) === JSON.stringify(list)) return chain;
      list = next;
      return save();
    },
    flushed: () => chain,
  };
}

function load(path: string, onWarning: (message: string) => void): OutboxEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    onWarning(`Could not read the queue outbox (${String(error)}); starting with none.`);
    return [];
  }
  try {
    const parsed = fileSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data.entries as OutboxEntry[];
  } catch {
    // not JSON: set aside below
  }
  const aside = `${path}.corrupt-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch {
    // keep going with an empty outbox either way
  }
  onWarning(`The queue outbox could not be read and was set aside as ${aside}; edits waiting in it were not replayed.`);
  return [];
}

async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
