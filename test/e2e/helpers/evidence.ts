import { join } from 'node:path';
import type { Browser } from 'playwright';
import { shotsDir } from './shots.ts';

/**
 * What a failed end-to-end test leaves behind to be read: a screenshot of every page its browsers
 * still have open and the words those pages show, printed with the failure. A flaky wait on a busy
 * machine then says what the screen showed instead of only what was expected.
 */
const watched = new Set<Browser>();

/** Keeps `browser` in view until it closes; returns it. */
export function watchForEvidence(browser: Browser): Browser {
  watched.add(browser);
  browser.once('disconnected', () => watched.delete(browser));
  return browser;
}

/** Screenshots and page text of every open page, for the failed test `name`. */
export async function recordFailure(name: string): Promise<void> {
  const slug = name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
  const pages = [...watched].flatMap((b) => b.contexts().flatMap((c) => c.pages()));
  for (const [i, page] of pages.entries()) {
    if (page.isClosed()) continue;
    const path = join(shotsDir(), `failed-${slug}-${i + 1}.png`);
    const shot = await page.screenshot({ path, timeout: 5_000 }).then(
      () => path,
      (error: unknown) => `no screenshot (${String(error)})`,
    );
    const text = await page
      .locator('body')
      .innerText({ timeout: 2_000 })
      .catch((error: unknown) => `(unreadable: ${String(error)})`);
    console.log(`After the failure of "${name}", page ${i + 1} (${page.url()}): ${shot}\n${text.slice(0, 2_000)}`);
  }
}
