import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll } from 'vitest';
import {
  launchBrowser,
  openSignedIn,
  serviceForApp,
  startApp,
  startTestService,
  type AppPage,
  type RunningApp,
  type StartAppOptions,
  type TestService,
} from './helpers/index.ts';
import { anotherDevice, type Subscriber } from './queue-subscriber.ts';

/**
 * The app (web host + Chromium) signed in to a service the test runs, with the demo subscriber's
 * own line to that service ("another device") to set things up and read results back.
 */
export interface AppOnService {
  svc: TestService;
  browser: Browser;
  subscriber: Subscriber;
  app: RunningApp;
  view: AppPage;
  page: Page;
}

export interface AppOnServiceOptions {
  /** Empty both queues first: the demo subscriber starts with about forty titles queued. */
  emptyQueues?: boolean;
  /** Runs once the subscriber is signed in, before the app starts (saved titles, availability). */
  before?: (svc: TestService, subscriber: Subscriber) => Promise<void>;
  /** More of the app's start options (its user-data folder, alerts). */
  app?: Omit<StartAppOptions, 'service'>;
}

export async function startAppOnService(options: AppOnServiceOptions = {}): Promise<AppOnService> {
  const [svc, browser] = await Promise.all([startTestService(), launchBrowser()]);
  let app: RunningApp | undefined;
  try {
    const subscriber = await anotherDevice(svc);
    if (options.emptyQueues) {
      await subscriber.clear('instant');
      await subscriber.clear('disc');
    }
    await options.before?.(svc, subscriber);
    app = await startApp({ service: serviceForApp(svc), ...options.app });
    const view = await openSignedIn(browser, app);
    return { svc, browser, subscriber, app, view, page: view.page };
  } catch (error) {
    // The caller never sees what started, so its afterAll could not stop it.
    await stopAppOnService({ svc, browser, ...(app ? { app } : {}) });
    throw error;
  }
}

/** Closes whatever of an `AppOnService` was started (afterAll runs after a failed beforeAll too). */
export async function stopAppOnService(parts: Partial<Omit<AppOnService, 'subscriber' | 'page'>>): Promise<void> {
  await parts.view?.close().catch(() => undefined);
  await parts.app?.stop();
  await parts.browser?.close();
  await parts.svc?.dispose();
}

/**
 * One `AppOnService` for a whole test file: started before its first test, stopped after its last.
 * Its fields are filled once the start has finished; read them inside tests.
 */
export function appOnServiceForFile(options: AppOnServiceOptions = {}): AppOnService {
  const parts = {} as AppOnService;
  beforeAll(async () => {
    Object.assign(parts, await startAppOnService(options));
  }, 240_000);
  afterAll(() => stopAppOnService(parts), 60_000);
  return parts;
}
