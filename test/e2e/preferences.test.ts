import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { descendants } from './helpers/processes.ts';
import { apiCall, launchBrowser, openApp, shot, startApp, type AppPage, type RunningApp } from './helpers/index.ts';
import { copyDemoStore } from '../helpers/service.ts';
import { serviceDataDir } from '../../electron/embedded-service.ts';

/**
 * The person's theme and page size are the core's, not the page's: the web host's address (and
 * so the page's storage) changes every launch. Set in Settings, then the whole app killed
 * (SIGKILL) right after the core acknowledged the change, started again, stopped cleanly and
 * started a third time: each start shows the chosen theme from its first paint (the served page
 * names it), and Settings shows both choices.
 */
vi.setConfig({ testTimeout: 240_000 });

let browser: Browser;
let app: RunningApp | null = null;
let view: AppPage | null = null;
/** The app's user-data folder, kept across its restarts (startApp removes only a folder it made). */
const userDataDir = mkdtempSync(join(tmpdir(), 'marquee-e2e-preferences-'));

beforeAll(async () => {
  // The embedded service starts on a copy of the run's demo catalog, as startApp does for a folder of its own.
  copyDemoStore(serviceDataDir(userDataDir));
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await view?.close().catch(() => undefined);
  await app?.stop();
  await browser?.close();
  rmSync(userDataDir, { recursive: true, force: true });
}, 60_000);

/** Starts the app on the kept folder and opens it at the sign-in card. */
async function launch(): Promise<Page> {
  app = await startApp({ userDataDir });
  view = await openApp(browser, app);
  return view.page;
}

/** Settings from the sign-in card (no sign-in needed: preferences belong to the app, not an account). */
async function openSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Change service' }).click();
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
}

const themeChoice = (page: Page, name: string) =>
  page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name, exact: true });
const pageSize = (page: Page) => page.getByLabel('Results per page');
const pinnedTheme = (page: Page) => page.evaluate<string | null>("document.documentElement.getAttribute('data-theme')");

/** The whole app at once, as a crash or a power cut would stop it: the web host and everything it started. */
async function killApp(running: RunningApp): Promise<void> {
  const tree = [running.proc.pid!, ...descendants(running.proc.pid!)];
  const exited = new Promise((resolve) => running.proc.once('exit', resolve));
  for (const pid of tree) process.kill(pid, 'SIGKILL');
  await exited;
}

test('a theme and page size chosen in Settings are kept through a SIGKILL, a restart and another', async () => {
  let page = await launch();
  await openSettings(page);
  await shot(page, 'settings-system-theme'); // the System theme: light and dark by the page's colour scheme
  expect(await themeChoice(page, 'System').isChecked()).toBe(true);

  const acknowledged = (operation: string) =>
    page.waitForResponse((r) => r.url().endsWith(`/api/${operation}`) && r.ok());
  let answer = acknowledged('preferences.set');
  await pageSize(page).selectOption('96');
  await answer;
  answer = acknowledged('preferences.set');
  await themeChoice(page, 'Dark').click();
  await expect.poll(() => pinnedTheme(page)).toBe('dark');
  await answer;
  await killApp(app!);
  await view!.close();

  // Second start, after the kill: the first screen is already dark, and Settings shows both choices.
  page = await launch();
  expect(await pinnedTheme(page)).toBe('dark');
  // The page as served already names the theme, so even the paint before any script is dark.
  expect(await (await fetch(`${app!.hostUrl}/`)).text()).toMatch(/<html[^>]* data-theme="dark"/);
  await openSettings(page);
  expect(await themeChoice(page, 'Dark').isChecked()).toBe(true);
  expect(await pageSize(page).inputValue()).toBe('96');
  await shot(page, 'settings-dark-theme');
  await view!.close();
  await app!.stop();

  // Third start, after a clean stop.
  page = await launch();
  expect(await pinnedTheme(page)).toBe('dark');
  expect(await apiCall(app!, 'preferences.get', {})).toMatchObject({ theme: 'dark', pageSize: 96 });
  await openSettings(page);
  expect(await pageSize(page).inputValue()).toBe('96');

  // Back to Light by keyboard (the theme is a radio group: an arrow moves and chooses): the page follows
  // at once, and the core keeps it.
  await themeChoice(page, 'Dark').focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => themeChoice(page, 'Light').isChecked()).toBe(true);
  await expect.poll(() => pinnedTheme(page)).toBe('light');
  await expect.poll(async () => (await apiCall(app!, 'preferences.get', {})).theme).toBe('light');
  await shot(page, 'settings-light-theme');
  expect(view!.problems).toEqual([]);
});

test('a page size out of range is refused in words, and the one chosen is kept', async () => {
  const answer = await fetch(`${app!.hostUrl}/api/preferences.set`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${/#token=([\w-]+)/.exec(app!.launchUrl)![1]!}`,
    },
    body: JSON.stringify({ pageSize: 2 }),
  });
  const result = (await answer.json()) as { ok: boolean; error?: { kind: string; message: string } };
  expect(result).toMatchObject({ ok: false, error: { kind: 'invalid', message: 'Show at least 5 results per page.' } });
  expect(await apiCall(app!, 'preferences.get', {})).toMatchObject({ theme: 'light', pageSize: 96 });
});
