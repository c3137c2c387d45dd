/** The end-to-end harness shared by the renderer's test files. */
import { launchBrowser as launchChromium } from '../../helpers/browser.ts';
import { watchForEvidence } from './evidence.ts';

export { startApp, type RunningApp, type StartAppOptions } from './app.ts';
export { operator, serviceForApp, startTestService, type TestService } from './service.ts';
export { apiCall } from './api.ts';
export {
  openApp,
  openSignedIn,
  signIn,
  approveOnServicePage,
  frameShown,
  goTo,
  openScreen,
  type AppPage,
} from './page.ts';
export { shot, shotsDir } from './shots.ts';
export { expectNoSeriousAxe } from './axe.ts';

/** The end-to-end files' Chromium, drawing in software (half the CPU of an emulated GPU); a failed test shows its pages. */
export const launchBrowser = async () => watchForEvidence(await launchChromium({ softwareDrawing: true }));
