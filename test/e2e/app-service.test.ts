import type { Browser } from 'playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  apiCall,
  expectNoSeriousAxe,
  frameShown,
  goTo,
  launchBrowser,
  openSignedIn,
  shot,
  startApp,
  startTestService,
  type RunningApp,
  type TestService,
} from './helpers/index.ts';
import { stopAppOnService } from './app-on-service.ts';

/**
 * The app against a service the test controls, chosen in Settings like another catalog service
 * (its own consumer key): the service stopping mid-session and coming back, and a consumer over
 * its day quota. A real web host, a real service process, a real Chromium.
 */
const TEST_MS = 120_000;
let service: TestService;
let app: RunningApp;
/** The app, with the test service's demo subscriber to sign in as. */
let onService: RunningApp;
let consumer: { key: string; secret: string };
let browser: Browser;

beforeAll(async () => {
  [service, app, browser] = await Promise.all([startTestService(), startApp(), launchBrowser()]);
  consumer = await service.addConsumer('Marquee e2e');
  const profile = await apiCall(app, 'profiles.save', {
    label: 'Test service',
    baseUrl: service.url,
    consumerKey: consumer.key,
    consumerSecret: consumer.secret,
  });
  await apiCall(app, 'profiles.activate', { id: profile.id });
  onService = { ...app, demo: service.demo };
}, 120_000);

afterAll(() => stopAppOnService({ app, browser, svc: service }), 30_000);

test(
  'the service going away shows one offline indicator, and the app recovers when it is back',
  async () => {
    const appPage = await openSignedIn(browser, onService);
    const { page } = appPage;
    await goTo(page, 'History');
    await page.getByRole('table', { name: 'Rental history' }).waitFor();

    await service.stop();
    try {
      await goTo(page, 'Recommendations');
      const statusLine = page.getByRole('status', { name: 'Status' });
      await statusLine.getByText(/^Offline: couldn’t reach the service/).waitFor();
      await page.getByRole('img', { name: 'Offline' }).waitFor(); // the sidebar's connection dot
      expect(await page.getByText(/Offline: couldn’t reach the service/).count()).toBe(1);
      await page
        .getByRole('alert')
        .filter({ hasText: 'This couldn’t load while the service is unreachable.' })
        .waitFor();
      expect(await page.getByText(/couldn’t reach the service/i).count()).toBe(1); // one offline message, in the status line
      await shot(page, 'offline');
      await expectNoSeriousAxe(page, 'offline');
    } finally {
      await service.start();
    }
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('list', { name: 'Recommended titles' }).waitFor();
    await page.getByRole('img', { name: 'Online' }).waitFor();
    expect(await page.getByText(/Offline: couldn’t reach the service/).count()).toBe(0);
    await appPage.close();
  },
  TEST_MS,
);

test(
  'a consumer over its day quota: the status line and the screen say when to try again',
  async () => {
    const appPage = await openSignedIn(browser, onService);
    const { page } = appPage;
    await frameShown(page).waitFor();
    // A running service reuses a consumer row for a few seconds: change the quota while it is stopped.
    await service.stop();
    await service.setQuota(consumer.key, ['--per-day', '0']);
    await service.start();
    try {
      await goTo(page, 'Ratings');
      const notice = page
        .getByRole('status', { name: 'Status' })
        .getByText(/^The service’s request limit is reached: you can try again at .*\d\d:\d\d:\d\d( [AP]M)?\.$/);
      await notice.waitFor();
      await page
        .getByRole('alert')
        .filter({ hasText: /request limit is used up for now\.You can try again at / })
        .waitFor();
      await shot(page, 'quota');
      await expectNoSeriousAxe(page, 'quota');
    } finally {
      await service.stop();
      await service.setQuota(consumer.key, ['--per-day', 'default']);
      await service.start();
    }
    expect(appPage.problems.filter((p) => !/status of 403|Failed to load resource/.test(p))).toEqual([]);
    await appPage.close();
  },
  TEST_MS,
);
