import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright';
import { shotsDir } from './shots.ts';

/**
 * What a failed end-to-end test leaves behind to be read: a screenshot of every page its browsers
 * still have open, the words those pages show, and the last lines the running apps printed, all
 * printed with the failure. A flaky wait on a busy machine then says what the screen showed (and
 * what the core logged) instead of only what was expected.
 */
const watched = new Set<Browser>();
const apps = new Set<{ name: string; output: { text: string } }>();

/** Keeps an app's printed output in view until its process exits. */
export function watchAppForEvidence(name: string, proc: ChildProcess, output: { text: string }): void {
  const app = { name, output };
  apps.add(app);
  proc.once('exit', () => apps.delete(app));
}

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
  for (const app of apps)
    console.log(`After the failure of "${name}", the last words of ${app.name}:\n${app.output.text.slice(-3_000)}`);
}
