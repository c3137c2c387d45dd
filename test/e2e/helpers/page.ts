import type { Browser, BrowserContext, Page } from 'playwright';
import type { RunningApp } from './app.ts';

/** A page of the app in its own browser context, with the console errors and page errors it raised. */
export interface AppPage {
  page: Page;
  context: BrowserContext;
  /** "console: …" / "pageerror: …" lines seen so far. */
  problems: string[];
  close(): Promise<void>;
}

/**
 * Opens the printed address in a fresh context (empty storage) and waits for the app to show its
 * first screen. The context asks for reduced motion, as a person may in their system settings: the
 * app's fades and slides then take 0 ms (tokens.css), so Chromium draws no frames for them while a
 * test waits on what the app does. Behaviour is the same either way (no script reads the
 * preference); the CPU it saves is measured in the commit that made it so.
 */
export async function openApp(
  browser: Browser,
  app: RunningApp,
  viewport = { width: 1280, height: 800 },
): Promise<AppPage> {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    // React's development build says so as it loads; what ships, and so what is tested, is the production build.
    else if (m.text().includes('React DevTools')) problems.push(`development build: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(app.launchUrl);
  await page.locator('[data-app-ready]').first().waitFor({ timeout: 30_000 });
  return { page, context, problems, close: () => context.close() };
}

/** Whether the app shows the signed-in frame (the main navigation). */
export function frameShown(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

/**
 * Fills the service's real sign-in page (login, password, terms) and allows access. For a
 * loopback sign-in it then waits for the app's callback page; for a code sign-in it returns the PIN shown.
 */
export async function approveOnServicePage(
  signInPage: Page,
  demo: { login: string; password: string },
): Promise<string | null> {
  await signInPage.locator('input[name="login"]').fill(demo.login);
  await signInPage.locator('input[name="password"]').fill(demo.password);
  const terms = signInPage.locator('input[name="accept_tos"]');
  if (await terms.count()) await terms.check();
  await signInPage.getByRole('button', { name: 'Allow access' }).click();
  await signInPage.waitForLoadState('domcontentloaded');
  const callback = (u: URL) => u.hostname === '127.0.0.1' && u.pathname.startsWith('/marquee/oauth-callback/');
  if (callback(new URL(signInPage.url()))) {
    await signInPage.getByRole('heading', { name: /signed in/i }).waitFor();
    return null;
  }
  const pin = signInPage.locator('#pin');
  if (!(await pin.count()))
    throw new Error(
      `the service's page showed neither the callback nor a PIN:\n${await signInPage.locator('body').innerText()}`,
    );
  return (await pin.innerText()).trim();
}

/**
 * Signs in like a user: Sign in, then the address the app shows as a link opened in another tab
 * of the same browser, the service's real sign-in page approved, and (when the page shows a
 * code, as it does when no browser could be opened) the code typed into the app.
 */
export async function signIn(appPage: AppPage, app: RunningApp): Promise<void> {
  const { page, context } = appPage;
  const printedBefore = app.output.text.length;
  await page.getByRole('button', { name: 'Sign in' }).click();
  const url = await signInAddress(page, app, printedBefore);
  const signInPage = await context.newPage();
  let pin: string | null;
  try {
    await signInPage.goto(url);
    pin = await approveOnServicePage(signInPage, app.demo);
  } finally {
    await signInPage.close();
  }
  if (pin !== null) {
    await page.getByLabel('Got a code instead? Enter it here').fill(pin);
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await frameShown(page).waitFor();
}

/** The sign-in address the app shows as a link (or, while a core without `pending` runs, the one the web host prints). */
async function signInAddress(page: Page, app: RunningApp, printedBefore: number): Promise<string> {
  const link = page.getByRole('link', { name: /^http/ });
  const shown = link.waitFor({ timeout: 15_000 }).then(async () => (await link.getAttribute('href'))!);
  const printed = app.output
    .waitFor(/^Open this address to sign in: (\S+)$/m, 15_000, printedBefore)
    .then((m) => m[1]!);
  shown.catch(() => {});
  printed.catch(() => {});
  return Promise.any([shown, printed]);
}

/** A page of the app, signed in: through the UI when the app is not signed in yet. */
export async function openSignedIn(browser: Browser, app: RunningApp): Promise<AppPage> {
  const appPage = await openApp(browser, app);
  const frame = frameShown(appPage.page);
  const card = appPage.page.getByRole('button', { name: 'Sign in' });
  await frame.or(card).first().waitFor();
  if (!(await frame.count())) await signIn(appPage, app);
  return appPage;
}

/** Opens a screen from the sidebar: a string names the start of its button's name. */
export async function openScreen(page: Page, name: string | RegExp): Promise<void> {
  await frameShown(page)
    .getByRole('button', { name: typeof name === 'string' ? new RegExp(`^${name}`) : name })
    .click();
}

/** Opens a screen from the sidebar and waits for its heading. */
export async function goTo(page: Page, name: string): Promise<void> {
  await openScreen(page, name);
  await page.getByRole('heading', { level: 1, name }).waitFor();
}
