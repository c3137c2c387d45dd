import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
import type { ImportMatch } from '../../shared/import-export.ts';
import { apiCall, expectNoSeriousAxe, shot } from './helpers/index.ts';
import {
  dropFile,
  emptyInstantQueue as emptyQueue,
  openImportFromQueue as openImport,
  reviewGroup,
  reviewRow,
} from './import-steps.ts';
import { appOnServiceForFile } from './app-on-service.ts';

/**
 * Import and export end to end: the app (web host + Chromium) against a service the test runs,
 * every result read back from the service over signed HTTP. Each of the three file kinds of
 * test/fixtures/import is imported through the review (three groups, a choice made, confirm) and
 * the queue then holds exactly the titles matched with certainty or chosen, in order; one import
 * is made with the keyboard alone; an export downloaded from the app and imported into an empty
 * queue gives back the same order and ratings, and Undo takes the import back.
 */
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'import');
interface Truth {
  title: string;
  year: number | null;
  id: number | null;
  expect: string | null;
}
const truth = JSON.parse(readFileSync(join(FIXTURES, 'truth.json'), 'utf8')) as Record<string, Truth[]>;

// A real browser on a shared machine, axe in two themes on long pages: generous per-test limits.
vi.setConfig({ testTimeout: 240_000 });

const s = appOnServiceForFile({ emptyQueues: true });

const refOf = (id: number) => `${s.svc.url}/catalog/titles/movies/${id}`;

/** What the app's own matcher decides for a fixture (the review must show exactly this). */
async function matchesOf(file: string): Promise<ImportMatch[]> {
  const read = await apiCall(s.app, 'import.read', { text: readFileSync(join(FIXTURES, file), 'utf8') });
  return apiCall(s.app, 'import.match', { entries: read.entries });
}

const emptyInstantQueue = () => emptyQueue(s.app, s.subscriber);
const openImportFromQueue = () => openImport(s.page);
const group = (status: 'matched' | 'choice' | 'missing') => reviewGroup(s.page, status);
const rowAt = (line: number) => reviewRow(s.page, line);

/** The review's three groups show the matcher's counts; every entry of the fixture is in its designed group. */
async function expectGroups(file: string, matches: ImportMatch[]): Promise<void> {
  await s.page
    .getByRole('button', { name: /^Import \d+ titles?/ })
    .or(s.page.getByRole('button', { name: 'Import' }))
    .first()
    .waitFor();
  for (const status of ['matched', 'choice', 'missing'] as const) {
    const count = matches.filter((m) => m.status === status).length;
    await expect
      .poll(() => group(status).getByRole('heading', { level: 2 }).textContent())
      .toMatch(new RegExp(`${count}$`));
    expect(await group(status).locator('li.import-row').count()).toBe(count);
  }
  truth[file]!.forEach((t, i) => {
    const m = matches[i]!;
    if (t.expect) expect(m.status, t.title).toBe(t.expect);
    if (m.status === 'matched') expect(m.ref, t.title).toBe(refOf(t.id!));
  });
}

/** The refs a confirmed import should have added, in file order: certain matches, and the choices made. */
function expectedRefs(matches: ImportMatch[], chosen: Map<number, string>, already: Set<string> = new Set()): string[] {
  const refs = matches
    .map((m, i) => chosen.get(i) ?? (m.status === 'matched' ? m.ref! : null))
    .filter((r): r is string => r !== null);
  return [...new Set(refs)].filter((r) => !already.has(r));
}

/** The line of a fixture entry (its row in the review) by title. */
async function lineOf(title: string): Promise<number> {
  const row = s.page
    .locator('li.import-row')
    .filter({ has: s.page.locator('.import-entry', { hasText: `“${title}”` }) })
    .first();
  return Number(await row.getAttribute('data-line'));
}

test('a Letterboxd watchlist: three groups, a title already queued marked, a choice made, confirmed to the top', async () => {
  const file = 'letterboxd-watchlist.csv';
  const matches = await matchesOf(file);
  const entries = truth[file]!;
  const firstMatched = matches.findIndex((m) => m.status === 'matched');
  const already = matches[firstMatched]!.ref!;
  await emptyInstantQueue();
  await s.subscriber.replace([already]);
  await openImportFromQueue();
  await shot(s.page, 'import-choose');
  await expectNoSeriousAxe(s.page, 'the import screen');
  await s.page.locator('input[type="file"]').setInputFiles(join(FIXTURES, file));
  await expectGroups(file, matches);

  const alreadyRow = rowAt(await lineOf(entries[firstMatched]!.title));
  await expect.poll(() => alreadyRow.locator('.import-badge').textContent()).toBe('Already in your queue');
  const crash = entries.findIndex((t) => t.title === 'Crash');
  const crashRow = rowAt(await lineOf('Crash'));
  await crashRow.getByRole('radio', { name: /^Crash\s*2005/ }).check();
  await shot(s.page, 'import-review');
  await expectNoSeriousAxe(s.page, 'the import review');

  await s.page.locator('#import-confirm').getByRole('radio', { name: 'The top' }).check();
  await s.page.locator('#import-confirm').scrollIntoViewIfNeeded();
  await shot(s.page, 'import-review-confirm');
  const expected = expectedRefs(matches, new Map([[crash, refOf(entries[crash]!.id!)]]), new Set([already]));
  await s.page.getByRole('button', { name: `Import ${expected.length} titles` }).click();
  await s.page.getByText(`Added ${expected.length} titles to the top of your instant queue.`).waitFor();
  await expect.poll(() => s.subscriber.order(), { timeout: 30_000 }).toEqual([...expected, already]);
  // Nothing the fixture lacks, nothing doubtful left unchosen, went in.
  const absent = new Set(
    matches.filter((m, i) => m.status !== 'matched' && i !== crash).flatMap((m) => m.candidates.map((c) => c.ref)),
  );
  expect((await s.subscriber.order()).filter((r) => absent.has(r) && !expected.includes(r))).toEqual([]);
  await shot(s.page, 'import-done');
  await expectNoSeriousAxe(s.page, 'the import result');
});

test('an IMDb list: a choice made among films of one name, confirmed to the bottom of an empty queue', async () => {
  const file = 'imdb-watchlist.csv';
  const matches = await matchesOf(file);
  const entries = truth[file]!;
  await emptyInstantQueue();
  await openImportFromQueue();
  await s.page.locator('input[type="file"]').setInputFiles(join(FIXTURES, file));
  await expectGroups(file, matches);
  await expect.poll(() => s.page.locator('.import-summary').textContent()).toContain('read as a IMDb list');
  const sabrina = entries.findIndex((t) => t.title === 'Sabrina');
  await rowAt(await lineOf('Sabrina'))
    .getByRole('radio', { name: /^Sabrina\s*1995/ })
    .check();
  const expected = expectedRefs(matches, new Map([[sabrina, refOf(entries[sabrina]!.id!)]]));
  await s.page.getByRole('button', { name: `Import ${expected.length} titles` }).click();
  await s.page.getByText(`Added ${expected.length} titles to the bottom of your instant queue.`).waitFor();
  await expect.poll(() => s.subscriber.order(), { timeout: 30_000 }).toEqual(expected);
  // One undo step of the queue, like any bulk edit: the queue screen's Undo takes it back.
  await s.page.getByRole('button', { name: 'Open the instant queue' }).click();
  await s.page.getByRole('heading', { level: 1, name: 'Instant queue' }).waitFor();
  await s.page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect.poll(() => s.subscriber.order(), { timeout: 30_000 }).toEqual([]);
});

/** Presses Tab until the focused element passes `check` (at most `limit` presses). */
async function tabTo(check: () => Promise<boolean>, what: string, limit = 600): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await check()) return;
    await s.page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${what}`);
}

test('a plain text list, with the keyboard alone from choosing the file to confirming', async () => {
  const file = 'plain-list.txt';
  const matches = await matchesOf(file);
  const entries = truth[file]!;
  await emptyInstantQueue();
  await openImportFromQueue();
  // Listening before the first Tab: Playwright turns on its file chooser interception without
  // waiting for an answer, and a Space that came first opened a chooser no test could see.
  const chosen = s.page.waitForEvent('filechooser');
  await s.page.locator('.import-screen .screen-lede').focus();
  await tabTo(() => s.page.evaluate<boolean>(`document.activeElement?.type === 'file'`), 'the file chooser');
  await s.page.keyboard.press('Space');
  const chooser = await chosen;
  await chooser.setFiles(join(FIXTURES, file));
  await expectGroups(file, matches);

  const peterPan = entries.findIndex((t) => t.title === 'Peter Pan');
  const line = await lineOf('Peter Pan');
  const focused = (expression: string) =>
    s.page.evaluate<string | null>(
      `(() => { const e = document.activeElement; return e ? String(${expression}) : null; })()`,
    );
  await tabTo(
    async () => (await focused(`e.type === 'radio' && e.closest('li.import-row')?.dataset.line`)) === String(line),
    'Peter Pan’s choices',
  );
  for (let i = 0; i < 8 && !/^Peter Pan\s*2003/.test((await focused(`e.closest('label')?.textContent`)) ?? ''); i++)
    await s.page.keyboard.press('ArrowDown');
  expect(
    await rowAt(line)
      .getByRole('radio', { name: /^Peter Pan\s*2003/ })
      .isChecked(),
  ).toBe(true);
  const expected = expectedRefs(matches, new Map([[peterPan, refOf(entries[peterPan]!.id!)]]));
  await tabTo(async () => ((await focused('e.textContent')) ?? '').startsWith('Import '), 'Confirm');
  expect(await focused('e.textContent')).toBe(`Import ${expected.length} titles`);
  await s.page.keyboard.press('Enter');
  await s.page.getByText(`Added ${expected.length} titles to the bottom of your instant queue.`).waitFor();
  await expect.poll(() => s.subscriber.order(), { timeout: 30_000 }).toEqual(expected);
});

test('an export downloaded from the app, imported into an empty queue, gives back the order and ratings; Undo takes it back', async () => {
  const order = await s.subscriber.order();
  expect(order.length).toBeGreaterThan(40);
  const rated = order.slice(0, 5);
  const ratings = [5, 2, 4, 1, 3] as const;
  for (const [i, ref] of rated.entries()) await apiCall(s.app, 'ratings.set', { ref, rating: ratings[i]! });

  await s.page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Instant Queue/ })
    .click();
  await s.page.getByRole('button', { name: 'Export…' }).click();
  await s.page.getByRole('heading', { level: 1, name: 'Export' }).waitFor();
  await s.page.getByRole('radio', { name: 'Everything', exact: true }).check();
  await shot(s.page, 'export');
  await expectNoSeriousAxe(s.page, 'the export screen');
  const [download] = await Promise.all([
    s.page.waitForEvent('download'),
    s.page.getByRole('button', { name: 'Export' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^marquee-everything-\d{4}-\d\d-\d\d\.json$/);
  const path = await download.path();
  await s.page.getByText(/^Downloaded marquee-everything-/).waitFor();

  await emptyInstantQueue();
  for (const ref of rated) await apiCall(s.app, 'ratings.set', { ref, rating: null });
  expect([...(await s.subscriber.ratings(rated)).values()]).toEqual([null, null, null, null, null]);

  await openImportFromQueue();
  await s.page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'my-export.json', mimeType: 'application/json', buffer: readFileSync(path) });
  await expect.poll(() => s.page.locator('.import-summary').textContent()).toContain('read as a Marquee export');
  expect(await group('matched').locator('li.import-row').count()).toBe(order.length);
  await s.page.getByRole('button', { name: `Import ${order.length} titles and set 5 ratings` }).click();
  await s.page.getByText(`Added ${order.length} titles to the bottom of your instant queue; set 5 ratings.`).waitFor();
  await expect.poll(() => s.subscriber.order(), { timeout: 30_000 }).toEqual(order);
  expect([...(await s.subscriber.ratings(rated)).values()]).toEqual([...ratings]);

  await s.page.getByRole('button', { name: 'Undo import' }).click();
  await s.page.getByText('The import was undone: your queue and ratings are as they were.').waitFor();
  await expect.poll(() => s.subscriber.order(), { timeout: 30_000 }).toEqual([]);
  expect([...(await s.subscriber.ratings(rated)).values()]).toEqual([null, null, null, null, null]);
});

test('a file dropped on the window opens the review; a file that is not a list is refused in words', async () => {
  await s.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Browse' }).click();
  const drop = (name: string, text: string) => dropFile(s.page, name, text);
  await drop('films.txt', 'Casablanca (1942)\nOppenheimer (2023)\n');
  await s.page.getByRole('heading', { level: 1, name: 'Import a list' }).waitFor();
  await expect.poll(() => group('matched').getByRole('heading', { level: 2 }).textContent()).toBe('Matched 1');
  await s.page.getByRole('button', { name: 'Choose another file' }).click();
  await s.page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'list.csv', mimeType: 'text/csv', buffer: Buffer.from('{"hello": "world"}') });
  await s.page.getByText('This JSON file is not a Marquee export, the one JSON list Marquee imports.').waitFor();
  expect(s.view.problems).toEqual([]);
});
