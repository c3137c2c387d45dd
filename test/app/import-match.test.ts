import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportMatch } from '../../shared/import-export.ts';
import { startLiveCore, valueOf, type LiveCoreEnv } from './helpers/live-core.ts';
import { urlOf } from '../helpers/fetch-input.ts';

/**
 * Matching quality over the import fixtures (test/fixtures/import, built from the demo catalog's
 * own titles with the variations real lists carry and films the catalog lacks), through the
 * composed core against the real service: with the title-match extension, and without it (its
 * path sent to one the service does not have, so it answers 404 like a service without it).
 */
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'import');
interface Truth {
  title: string;
  year: number | null;
  id: number | null;
  expect: 'matched' | 'choice' | 'missing' | null;
  variation: string;
}
const truth = JSON.parse(readFileSync(join(FIXTURES, 'truth.json'), 'utf8')) as Record<string, Truth[]>;
const FILES = Object.keys(truth);

let withExtension: LiveCoreEnv;
let withoutExtension: LiveCoreEnv;

beforeAll(async () => {
  withExtension = await startLiveCore();
  withoutExtension = await startLiveCore({
    core: {
      fetch: (input, init) =>
        fetch(urlOf(input).replace('/catalog/titles/match', '/catalog/titles/no-match-here'), init),
    },
  });
});
afterAll(async () => {
  await withExtension?.close();
  await withoutExtension?.close();
});

async function matchFile(env: LiveCoreEnv, file: string): Promise<ImportMatch[]> {
  const read = valueOf(await env.core.dispatch('import.read', { text: readFileSync(join(FIXTURES, file), 'utf8') }));
  expect(read.entries.map((e) => e.title)).toEqual(truth[file]!.map((t) => t.title));
  return valueOf(await env.core.dispatch('import.match', { entries: read.entries }));
}

const idOf = (ref: string | null | undefined) => (ref ? Number(/\/(\d+)$/.exec(ref)?.[1]) : null);

describe.each([
  ['with the title-match extension', () => withExtension],
  ['one search per entry', () => withoutExtension],
])('%s', (_name, env) => {
  it.each(FILES)(
    '%s: at least 95 in 100 present films matched or offered rightly, no silent wrong match, the designed outcome for each',
    async (file) => {
      const matches = await matchFile(env(), file);
      const rows = truth[file]!.map((t, i) => ({ t, m: matches[i]! }));
      const present = rows.filter((r) => r.t.id !== null);
      const right = present.filter(({ t, m }) =>
        m.status === 'matched' ? idOf(m.ref) === t.id : m.candidates.some((c) => idOf(c.ref) === t.id),
      );
      const silentWrong = rows.filter(({ t, m }) => m.status === 'matched' && idOf(m.ref) !== t.id);
      const report = rows.map(
        ({ t, m }) =>
          `${t.variation}: ${t.title} (${t.year}) → ${m.status} ${m.candidates.map((c) => `${c.title} ${c.year}`).join(' | ')} [${m.reason}]`,
      );
      expect(
        silentWrong.map((r) => `${r.t.title} (${r.t.year}) → ${r.m.candidates[0]?.title} ${r.m.candidates[0]?.year}`),
      ).toEqual([]);
      expect(right.length / present.length, report.join('\n')).toBeGreaterThanOrEqual(0.95);
      for (const { t, m } of rows) {
        const expected = t.expect ?? (m.status === 'matched' ? 'not matched' : m.status);
        expect(m.status, `${t.variation}: ${t.title} (${t.year})`).toBe(expected);
      }
      expect(rows.filter((r) => r.t.id === null && r.m.status === 'missing').length).toBeGreaterThanOrEqual(10);
    },
  );
});
