import type { Page } from 'playwright';
import { expect } from 'vitest';
import { apiCall, type RunningApp } from './helpers/index.ts';
import type { Subscriber } from './queue-subscriber.ts';

/** Steps the Import screen's end-to-end files share: reaching the screen, its rows and groups, a dropped file. */

/** Empties the instant queue through the app and waits until the service has it empty. */
export async function emptyInstantQueue(app: RunningApp, subscriber: Subscriber): Promise<void> {
  await apiCall(app, 'queue.replace', { kind: 'instant', refs: [] });
  await expect.poll(() => subscriber.order(), { timeout: 30_000 }).toEqual([]);
}

/** The Import screen, opened as a person does: the instant queue's Import… button. */
export async function openImportFromQueue(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Instant Queue/ })
    .click();
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByRole('heading', { level: 1, name: 'Import a list' }).waitFor();
}

export const reviewGroup = (page: Page, status: 'matched' | 'choice' | 'missing') => page.locator(`#import-${status}`);
export const reviewRow = (page: Page, line: number) => page.locator(`li.import-row[data-line="${line}"]`);

/** A file dropped on the window, as a person drags one from their desktop. */
export async function dropFile(page: Page, name: string, text: string): Promise<void> {
  const data = await page.evaluateHandle(
    `(() => { const dt = new DataTransfer(); dt.items.add(new File([${JSON.stringify(text)}], ${JSON.stringify(name)}, { type: 'text/plain' })); return dt; })()`,
  );
  await page.dispatchEvent('main', 'dragover', { dataTransfer: data });
  await page.dispatchEvent('main', 'drop', { dataTransfer: data });
}
