import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openQueueOutbox } from '../../electron/core/queue/index.ts';
import { QUEUE_LIMIT } from '../../shared/protocol/queue.ts';

/** The outbox reads its intents by shared/ipc.ts's input schemas: what the app accepts is what it keeps. */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function outboxFile(intents: unknown[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-intents-'));
  dirs.push(dir);
  const path = join(dir, 'queue-outbox.json');
  const entries = intents.map((intent, i) => ({
    id: `e${i}`,
    account: 'p:u',
    intent,
    queuedAt: 1_700_000_000_000 + i,
  }));
  writeFileSync(path, JSON.stringify({ version: 1, entries }));
  return path;
}

const ref = 'http://127.0.0.1:8741/catalog/titles/movies/1';

describe('the outbox file', () => {
  it('reads every kind of edit as written by earlier launches, names included', () => {
    const intents = [
      { op: 'move', kind: 'instant', ref, position: QUEUE_LIMIT, name: 'Alien' },
      { op: 'add', kind: 'disc', ref, position: 2, format: 'Blu-ray' },
      { op: 'remove', kind: 'instant', ref, name: 'Alien' },
      { op: 'replace', kind: 'instant', refs: [ref], base: [] },
    ];
    const warnings: string[] = [];
    const outbox = openQueueOutbox(outboxFile(intents), (w) => warnings.push(w));
    expect(outbox.entries().map((e) => e.intent)).toEqual(intents);
    expect(warnings).toEqual([]);
  });

  it('sets aside a file whose edit the app would refuse (a position past the queue limit), saying so', () => {
    const path = outboxFile([{ op: 'move', kind: 'instant', ref, position: QUEUE_LIMIT + 1 }]);
    const warnings: string[] = [];
    const outbox = openQueueOutbox(path, (w) => warnings.push(w));
    expect(outbox.entries()).toEqual([]);
    expect(warnings.join(' ')).toMatch(/set aside/);
    expect(readdirSync(join(path, '..')).some((f) => f.startsWith('queue-outbox.json.corrupt-'))).toBe(true);
  });
});
