import { expect, test, vi } from 'vitest';
import type { ImportCandidate, ImportMatch } from '../../shared/import-export.ts';
import { apiCall, expectNoSeriousAxe, shot } from './helpers/index.ts';
import { dropFile, emptyInstantQueue, openImportFromQueue, reviewGroup, reviewRow } from './import-steps.ts';
import { appOnServiceForFile } from './app-on-service.ts';

/**
 * The import's review as a week of use found it wanting, end to end (the app through the web host
 * in Chromium, a service the test runs, results read back over signed HTTP): plain-text lines as
 * people write them ("1. Heat (1995)", "Alien 1979") are read; the counts follow a skip; the review
 * survives leaving the screen and asks before a dropped file replaces it; a rating the file would
 * replace is shown and can be kept; a title only on disc can go to the disc queue.
 */
// A real browser on a shared machine: generous per-test limits.
vi.setConfig({ testTimeout: 240_000 });

const s = appOnServiceForFile({ emptyQueues: true });

/** A plain text file as a person writes one: numbering, a bullet, bare years. */
async function chooseText(name: string, text: string): Promise<void> {
  await s.page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await s.page
    .getByRole('button', { name: /^(Import|Set)/ })
    .first()
    .waitFor();
}

const tally = () => s.page.locator('.import-tally').textContent();
const NUMBERED =
  '1. The Wedding Planner (2001)\n2) Coraline 2009\n- Viridiana\nModern Problems 1981\n3. Pirates (1986)\n';

/** What the app's matcher makes of a text, and the refs of its certain matches the instant queue offers now. */
async function numberedMatches(text: string): Promise<{ matches: ImportMatch[]; streaming: string[] }> {
  const read = await apiCall(s.app, 'import.read', { text });
  const matches = await apiCall(s.app, 'import.match', { entries: read.entries });
  const streaming = matches
    .filter((m) => m.status === 'matched' && m.candidates[0]!.placement.instant === 'now')
    .map((m) => m.ref!);
  return { matches, streaming };
}

test('a text file with numbered lines, bullets and bare years imports, every line matched', async () => {
  const { matches, streaming } = await numberedMatches(NUMBERED);
  expect(matches.map((m) => m.status)).toEqual(['matched', 'matched', 'matched', 'matched', 'matched']);
  expect(streaming.length).toBeGreaterThan(1);
  await emptyInstantQueue(s.app, s.subscriber);
  await openImportFromQueue(s.page);
  await chooseText('numbered.txt', NUMBERED);
  await expect
    .poll(() => reviewGroup(s.page, 'matched').getByRole('heading', { level: 2 }).textContent())
    .toBe('Matched 5');
  await s.page.getByRole('button', { name: `Import ${streaming.length} titles` }).click();
  await s.page.getByText(`Added ${streaming.length} titles to the bottom of your instant queue.`).waitFor();
  await expect.poll(() => s.subscriber.order(), { timeout: 30_000 }).toEqual(streaming);
});

test('the review’s counts follow a skip: one fewer to add, one more skipped, and Confirm says so', async () => {
  const { matches, streaming } = await numberedMatches(NUMBERED);
  await emptyInstantQueue(s.app, s.subscriber);
  await openImportFromQueue(s.page);
  await chooseText('numbered.txt', NUMBERED);
  const n = streaming.length;
  await expect.poll(tally).toContain(`To add: ${n} titles`);
  expect(await tally()).toContain('Skipped: 0 entries');
  // A title the queue would take (lines are the file's, one entry a line).
  const skipped = reviewRow(s.page, matches.findIndex((m) => m.ref === streaming[0]) + 1);
  await skipped.getByRole('button', { name: /^Change/ }).click();
  await skipped.getByRole('radio', { name: 'Skip this entry' }).check();
  const fewer = `${n - 1} title${n - 1 === 1 ? '' : 's'}`;
  await expect.poll(tally).toContain(`To add: ${fewer}`);
  expect(await tally()).toContain('Skipped: 1 entry');
  await s.page.getByRole('button', { name: `Import ${fewer}` }).waitFor();
  expect(await s.page.locator('.import-plan').textContent()).toContain(`${fewer} will go`);
  await shot(s.page, 'import-review-skip');
  await s.page.getByRole('button', { name: 'Choose another file' }).click();
});

test('leaving the review and coming back finds it as it was left, choices included', async () => {
  await openImportFromQueue(s.page);
  await chooseText('numbered.txt', NUMBERED);
  const row = reviewRow(s.page, 2);
  await row.getByRole('button', { name: /^Change/ }).click();
  await row.getByRole('radio', { name: 'Skip this entry' }).check();
  await row.getByRole('button', { name: /^Done/ }).click();
  await s.page.locator('#import-confirm').getByRole('radio', { name: 'The top' }).check();
  await expect.poll(tally).toContain('Skipped: 1 entry');
  const before = await s.page.locator('.import-review').innerText();

  await s.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Browse' }).click();
  await s.page.locator('.import-review').waitFor({ state: 'detached' });
  await openImportFromQueue(s.page);
  await expect.poll(() => s.page.locator('.import-summary').textContent()).toContain('numbered.txt');
  expect(await s.page.locator('.import-review').innerText()).toBe(before);
  expect(await s.page.locator('#import-confirm').getByRole('radio', { name: 'The top' }).isChecked()).toBe(true);
  await reviewRow(s.page, 2)
    .getByRole('button', { name: /^Change/ })
    .click();
  expect(await reviewRow(s.page, 2).getByRole('radio', { name: 'Skip this entry' }).isChecked()).toBe(true);
  await reviewRow(s.page, 2).getByRole('button', { name: /^Done/ }).click();

  // A file dropped over the review asks first: kept, the review is as it was; replaced, the new file is read.
  await dropFile(s.page, 'other.txt', 'Coraline (2009)\n');
  await s.page.getByText('Import “other.txt” instead?', { exact: false }).waitFor();
  await shot(s.page, 'import-review-replace');
  await s.page.getByRole('button', { name: 'Keep this review' }).click();
  await s.page.locator('.import-replace').waitFor({ state: 'detached' });
  expect(await s.page.locator('.import-review').innerText()).toBe(before);
  await dropFile(s.page, 'other.txt', 'Coraline (2009)\n');
  await s.page.getByRole('button', { name: 'Import “other.txt”' }).click();
  await expect.poll(() => s.page.locator('.import-summary').textContent()).toContain('other.txt');
  await s.page.getByRole('button', { name: 'Choose another file' }).click();
  await s.page.locator('input[type="file"]').waitFor({ state: 'attached' });
});

test('a rating the file would replace is shown in the review, and keeping mine keeps it', async () => {
  const { matches } = await numberedMatches('Coraline (2009)\nPirates (1986)\n');
  const [coraline, pirates] = matches.map((m) => m.ref!);
  await apiCall(s.app, 'ratings.set', { ref: coraline!, rating: 3 });
  await apiCall(s.app, 'ratings.set', { ref: pirates!, rating: 2 });
  await openImportFromQueue(s.page);
  await s.page.locator('input[type="file"]').setInputFiles({
    name: 'ratings.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Title,Year,Rating\nCoraline,2009,4\nPirates,1986,5\n'),
  });
  await s.page.getByText('You rated this 3 ★; the file says 4 ★. The file’s will replace yours.').waitFor();
  await s.page.getByText('You rated this 2 ★; the file says 5 ★.', { exact: false }).waitFor();
  await expect.poll(() => s.page.locator('.import-plan').textContent()).toContain('2 replace ratings you gave');
  await s.page.getByRole('checkbox', { name: 'Keep my rating of “Coraline” (2009)' }).check();
  await s.page.getByText('You rated this 3 ★; the file says 4 ★. Yours stays.').waitFor();
  await shot(s.page, 'import-review-ratings');
  await expectNoSeriousAxe(s.page, 'the review with a rating that would be replaced');
  await s.page.getByRole('button', { name: 'Set 1 rating' }).click();
  await s.page.getByText('Set 1 rating.').waitFor();
  expect([...(await s.subscriber.ratings([coraline!, pirates!])).values()]).toEqual([3, 5]);
  await s.page.getByRole('button', { name: 'Import another file' }).click();
});

/** A line of a text list the matcher reads with certainty as a title whose placement `fits`, and that title's ref. */
async function certainLine(fits: (p: ImportCandidate['placement']) => boolean): Promise<{ line: string; ref: string }> {
  for (const term of ['love', 'night', 'man', 'day', 'war', 'king', 'life', 'time']) {
    for (const c of (await apiCall(s.app, 'import.search', { term })).filter((c) => fits(c.placement))) {
      const line = `${c.title}${c.year !== null ? ` (${c.year})` : ''}`;
      const { matches } = await numberedMatches(line);
      if (matches[0]?.status === 'matched' && matches[0].ref === c.ref) return { line, ref: c.ref };
    }
  }
  throw new Error('the demo catalog has no title of this kind that a text line names with certainty');
}

test('a title offered only on disc can go to the disc queue instead of being left out', async () => {
  const streams = await certainLine((p) => p.instant === 'now');
  const discOnly = await certainLine((p) => p.instant === 'never' && p.disc === 'now');
  await emptyInstantQueue(s.app, s.subscriber);
  await s.subscriber.clear('disc');
  await openImportFromQueue(s.page);
  await chooseText('mixed.txt', `${streams.line}\n${discOnly.line}\n`);
  await reviewRow(s.page, 2).getByText('Only on disc: can go to your disc queue (see Confirm)').waitFor();
  await expect
    .poll(() => s.page.locator('.import-plan').textContent())
    .toContain('1 title not offered for streaming is left out');
  await s.page.getByRole('checkbox', { name: 'Put the 1 title offered only on disc in my disc queue' }).check();
  await reviewRow(s.page, 2).getByText('Only on disc: goes to your disc queue').waitFor();
  await shot(s.page, 'import-review-disc-only');
  await s.page.getByRole('button', { name: 'Import 2 titles' }).click();
  await s.page.getByRole('button', { name: 'Open the disc queue' }).waitFor();
  await expect.poll(() => s.subscriber.order(), { timeout: 30_000 }).toEqual([streams.ref]);
  await expect
    .poll(async () => (await s.subscriber.entries('disc')).map((e) => e.ref), { timeout: 30_000 })
    .toEqual([discOnly.ref]);
  // Undo takes back both queues' changes.
  await s.page.getByRole('button', { name: 'Undo import' }).click();
  await s.page.getByText('The import was undone: your queue and ratings are as they were.').waitFor();
  await expect.poll(() => s.subscriber.order(), { timeout: 30_000 }).toEqual([]);
  await expect.poll(async () => (await s.subscriber.entries('disc')).length, { timeout: 30_000 }).toBe(0);
  expect(s.view.problems).toEqual([]);
});
