import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../../electron/core/client/index.ts';
import type { ExportFile, ImportFile, ImportMatch, ImportOutcome } from '../../shared/import-export.ts';
import type { UserRating } from '../../shared/models.ts';
import { titleKey } from '../../shared/protocol/title-key.ts';
import { setInstantQueue, startLiveCore, valueOf, type LiveCoreEnv } from './helpers/live-core.ts';
import { urlOf } from '../helpers/fetch-input.ts';

/**
 * Export and import through the composed core against the real service: every export format read
 * back into an empty queue gives the same order and ratings; an import puts titles to come in the
 * saved part and leaves out what is queued or not offered; Undo takes it all back; the save goes
 * through the host's saveFile when it has one; Cancel stops matching.
 */
let env: LiveCoreEnv;
let refs: string[];
const saved: ExportFile[] = [];

const refOf = (id: number) => `${env.svc.url}/catalog/titles/movies/${id}`;

/** Movies that stream now (for a month more) and whose name and year no other title shares: a CSV round trip is certain for them. */
async function uniqueStreamingMovies(count: number): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000);
  const all = await env.svc.db.kysely
    .selectFrom('titles')
    .select(['id', 'title', 'release_year'])
    .where('type', 'in', ['movie', 'series'])
    .execute();
  const seen = new Map<string, number>();
  for (const t of all) seen.set(titleKey(t.title), (seen.get(titleKey(t.title)) ?? 0) + 1);
  const streaming = await env.svc.db.kysely
    .selectFrom('titles')
    .innerJoin('availability', 'availability.title_id', 'titles.id')
    .select(['titles.id', 'titles.title'])
    .where('titles.type', '=', 'movie')
    .where('availability.format', '=', 'instant')
    .where('availability.available_from', '<', now)
    .where((eb) =>
      eb.or([
        eb('availability.available_until', 'is', null),
        eb('availability.available_until', '>', now + 31 * 86400),
      ]),
    )
    .orderBy('titles.id')
    .execute();
  return streaming
    .filter((t) => seen.get(titleKey(t.title)) === 1)
    .slice(0, count)
    .map((t) => refOf(t.id));
}

/** A movie whose every instant window is in the future, and one never offered for streaming. */
async function laterAndNever(): Promise<{ later: string; never: string }> {
  const now = Math.floor(Date.now() / 1000);
  const later = await env.svc.db.kysely
    .selectFrom('availability')
    .select('title_id')
    .where('format', '=', 'instant')
    .where('available_from', '>', now + 86400)
    .where('title_id', '<', 60_500_000)
    .orderBy('title_id')
    .executeTakeFirstOrThrow();
  const never = await env.svc.db.kysely
    .selectFrom('titles')
    .select('id')
    .where('type', '=', 'movie')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('availability')
            .select('title_id')
            .whereRef('availability.title_id', '=', 'titles.id')
            .where('format', '=', 'instant'),
        ),
      ),
    )
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return { later: refOf(later.title_id), never: refOf(never.id) };
}

const ORDER_RATINGS: UserRating[] = [5, 3, 1, 4, 2];

beforeAll(async () => {
  env = await startLiveCore({ core: { saveFile: (file) => (saved.push(file), Promise.resolve({ saved: true })) } });
  refs = await uniqueStreamingMovies(8);
});
afterAll(() => env?.close());

async function clearAll(other: Client, rated: string[]): Promise<void> {
  await setInstantQueue(other, []);
  for (const ref of rated) await other.setRating(ref, null);
}

async function serviceOrder(): Promise<string[]> {
  return (await env.other.queue('instant', { max: 500 })).items.filter((i) => i.position !== null).map((i) => i.ref);
}

async function serviceRatings(of: string[]): Promise<Array<UserRating | null>> {
  const found = new Map((await env.other.ratings(of)).map((r) => [r.title.ref, r.userRating]));
  return of.map((ref) => found.get(ref) ?? null);
}

/** Reads a file, matches it and applies every certain match (each listed one to the queue's bottom, every rating). */
async function importAll(text: string): Promise<{ file: ImportFile; matches: ImportMatch[]; outcome: ImportOutcome }> {
  const file = valueOf(await env.core.dispatch('import.read', { text }));
  const matches = valueOf(await env.core.dispatch('import.match', { entries: file.entries }));
  const chosen = file.entries
    .map((e, i) => ({ e, ref: matches[i]!.ref }))
    .filter((x): x is { e: (typeof file.entries)[number]; ref: string } => x.ref !== null);
  const outcome = valueOf(
    await env.core.dispatch('import.apply', {
      kind: 'instant',
      placement: 'bottom',
      refs: file.isList ? chosen.filter((x) => x.e.listed).map((x) => x.ref) : [],
      ratings: chosen.filter((x) => x.e.rating !== null).map((x) => ({ ref: x.ref, rating: x.e.rating! })),
    }),
  );
  return { file, matches, outcome };
}

async function exported(what: 'instant' | 'ratings' | 'all', format: 'csv' | 'json' | 'atom'): Promise<string> {
  saved.length = 0;
  const result = valueOf(await env.core.dispatch('export.save', { what, format }));
  expect(result.delivery).toBe('saved');
  expect(saved).toHaveLength(1);
  expect(result.fileName).toBe(saved[0]!.fileName);
  return saved[0]!.content;
}

describe('export, then import into an empty queue', () => {
  beforeEach(async () => {
    await setInstantQueue(env.other, refs);
    for (const [i, rating] of ORDER_RATINGS.entries()) await env.other.setRating(refs[i]!, rating);
    valueOf(await env.core.dispatch('queue.list', { kind: 'instant' }));
  });

  it('as Marquee’s JSON document: the same order and ratings', async () => {
    const text = await exported('all', 'json');
    const doc = JSON.parse(text);
    expect([doc.format, doc.version, doc.instant.length, doc.ratings.length]).toEqual(['marquee-export', 1, 8, 5]);
    expect(Object.keys(doc.instant[0]).sort()).toEqual(
      expect.arrayContaining(['ref', 'title', 'year', 'boxArt', 'position', 'availability', 'format', 'itemRef']),
    );
    await clearAll(env.other, refs);
    const { file, outcome } = await importAll(text);
    expect(file.source).toBe('marquee-json');
    expect(outcome.placed).toEqual(refs);
    expect(await serviceOrder()).toEqual(refs);
    expect(await serviceRatings(refs)).toEqual([...ORDER_RATINGS, null, null, null]);
  });

  it('as the service’s Atom feed: the same order', async () => {
    const text = await exported('instant', 'atom');
    expect(text).toMatch(/^<\?xml[^>]*>\s*<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/);
    await clearAll(env.other, refs);
    const { file, matches } = await importAll(text);
    expect([file.source, file.kind]).toEqual(['queue-atom', 'instant']);
    expect(matches.every((m) => m.status === 'matched')).toBe(true);
    expect(await serviceOrder()).toEqual(refs);
  });

  it('as CSV in Letterboxd’s columns: the queue file gives the order, the ratings file the ratings', async () => {
    const queueCsv = await exported('instant', 'csv');
    expect(queueCsv.split('\r\n')[0]).toBe('Title,Year,Rating,WatchedDate,imdbID');
    const ratingsCsv = await exported('ratings', 'csv');
    expect(ratingsCsv.trim().split('\r\n')).toHaveLength(1 + ORDER_RATINGS.length);
    await clearAll(env.other, refs);
    const queue = await importAll(queueCsv);
    expect([queue.file.isList, queue.matches.every((m) => m.status === 'matched')]).toEqual([true, true]);
    const ratings = await importAll(ratingsCsv);
    expect([ratings.file.isList, ratings.outcome.placed]).toEqual([false, []]);
    expect(await serviceOrder()).toEqual(refs);
    expect(await serviceRatings(refs)).toEqual([...ORDER_RATINGS, null, null, null]);
  });
});

describe('an import', () => {
  it('puts titles still to come in the saved part, leaves out the queued and the unoffered, and Undo takes it all back', async () => {
    const { later, never } = await laterAndNever();
    await clearAll(env.other, refs);
    await setInstantQueue(env.other, refs.slice(0, 2));
    await env.other.setRating(refs[3]!, 2);
    valueOf(await env.core.dispatch('queue.list', { kind: 'instant' }));
    env.events.length = 0;
    const outcome = valueOf(
      await env.core.dispatch('import.apply', {
        kind: 'instant',
        placement: 'top',
        refs: [refs[2]!, refs[0]!, later, never, refs[3]!],
        ratings: [
          { ref: refs[3]!, rating: 5 },
          { ref: refs[4]!, rating: 4 },
        ],
      }),
    );
    expect(outcome.placed).toEqual([refs[2], refs[3]]);
    expect(outcome.saved).toEqual([later]);
    expect(outcome.skipped.map((s) => [s.ref, s.reason])).toEqual([
      [refs[0], 'queued'],
      [never, 'unavailable'],
    ]);
    expect(outcome.rated).toEqual([
      { ref: refs[3], before: 2, after: 5 },
      { ref: refs[4], before: null, after: 4 },
    ]);
    expect(await serviceOrder()).toEqual([refs[2], refs[3], refs[0], refs[1]]);
    const queue = await env.other.queue('instant', { max: 500 });
    expect(queue.items.find((i) => i.ref === later)?.position).toBeNull();
    expect(await serviceRatings([refs[3]!, refs[4]!])).toEqual([5, 4]);
    expect(
      env.events.some((e) => e.event === 'import.progress' && e.payload.phase === 'rating' && e.payload.finished),
    ).toBe(true);

    valueOf(
      await env.core.dispatch('import.undo', {
        kind: 'instant',
        before: outcome.before,
        after: outcome.after,
        saved: outcome.saved,
        rated: outcome.rated,
      }),
    );
    expect((await env.other.queue('instant', { max: 500 })).items.map((i) => i.ref)).toEqual(refs.slice(0, 2));
    expect(await serviceRatings([refs[3]!, refs[4]!])).toEqual([2, null]);
  });

  it('goes to the disc queue just as well, at the top', async () => {
    const disc = (
      await env.svc.db.kysely
        .selectFrom('availability')
        .select('title_id')
        .distinct()
        .where('format', '=', 'DVD')
        .where('available_from', '<', Math.floor(Date.now() / 1000))
        .where((eb) =>
          eb.or([
            eb('available_until', 'is', null),
            eb('available_until', '>', Math.floor(Date.now() / 1000) + 31 * 86400),
          ]),
        )
        .where('title_id', '<', 60_500_000)
        .orderBy('title_id')
        .limit(3)
        .execute()
    ).map((t) => refOf(t.title_id));
    const outcome = valueOf(
      await env.core.dispatch('import.apply', { kind: 'disc', placement: 'top', refs: disc, ratings: [] }),
    );
    expect(outcome.placed).toEqual(disc);
    expect(
      (await env.other.queue('disc', { max: 500 })).items
        .filter((i) => i.position !== null)
        .map((i) => i.ref)
        .slice(0, 3),
    ).toEqual(disc);
  });

  it('refuses more titles than the queue can hold, before changing anything', async () => {
    await setInstantQueue(env.other, refs.slice(0, 1));
    valueOf(await env.core.dispatch('queue.list', { kind: 'instant' }));
    const many = (
      await env.svc.db.kysely
        .selectFrom('titles')
        .select('id')
        .where('type', '=', 'movie')
        .where('id', '!=', Number(refs[0]!.split('/').pop()))
        .orderBy('id')
        .limit(500)
        .execute()
    ).map((t) => refOf(t.id));
    const result = await env.core.dispatch('import.apply', {
      kind: 'instant',
      placement: 'bottom',
      refs: many,
      ratings: [],
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toBe(
      'A queue holds at most 500 titles: yours has 1, so choose at most 499 to import (you chose 500).',
    );
    expect(await serviceOrder()).toEqual(refs.slice(0, 1));
  });

  it('answers the file for the renderer to download when the host has no save dialog', async () => {
    const web = await startLiveCore();
    try {
      const result = valueOf(await web.core.dispatch('export.save', { what: 'history', format: 'csv' }));
      expect(result.delivery).toBe('download');
      expect(result.file?.mediaType).toBe('text/csv');
      expect(result.file?.content.split('\r\n')[0]).toBe('Title,Year,Rating,WatchedDate,imdbID');
      const refused = await web.core.dispatch('export.save', { what: 'ratings', format: 'atom' });
      expect(!refused.ok && refused.error.message).toBe(
        'An Atom feed holds a queue: choose the instant or the disc queue.',
      );
    } finally {
      await web.close();
    }
  });

  it('stops matching at Cancel, saying so', async () => {
    const slow = await startLiveCore({
      core: {
        fetch: (input, init) =>
          fetch(urlOf(input).replace('/catalog/titles/match', '/catalog/titles/no-match-here'), init),
      },
    });
    try {
      const entries = Array.from({ length: 300 }, (_, i) => ({
        title: `Film number ${i}`,
        year: null,
        type: null,
        ref: null,
      }));
      const started = new Promise<void>((resolve) => slow.core.on('import.progress', (p) => p.done > 0 && resolve()));
      const matching = slow.core.dispatch('import.match', { entries });
      await started;
      expect(valueOf(await slow.core.dispatch('import.cancel', {}))).toEqual({ cancelled: true });
      const result = await matching;
      expect(!result.ok && result.error.message).toBe('You stopped the matching: nothing was imported.');
    } finally {
      await slow.close();
    }
  });
});
