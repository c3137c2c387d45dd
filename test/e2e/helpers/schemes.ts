import type { Page } from 'playwright';

export type ColorScheme = 'light' | 'dark';

/**
 * In the page: settles once the scheme's styles are applied (two frames) and every CSS transition
 * still running has ended. A change of scheme can start a transition before the reduced motion
 * applies (an axe run once saw light text over a dark segment's background).
 * (In-page code is a string: the test project's types have no DOM.)
 */
const COLOURS_LANDED = `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))).then(() =>
  Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => {}))))`;

/**
 * Runs `look` in the light colour scheme, then in the dark one, each once its colours have landed
 * (reduced motion: the app's transitions take 0 ms), and leaves the page light, with the motion
 * setting it had. What screenshots and accessibility checks of both themes share.
 */
export async function inEachScheme<T>(page: Page, look: (scheme: ColorScheme) => Promise<T>): Promise<T[]> {
  const motionWasReduced = await page.evaluate(`matchMedia('(prefers-reduced-motion: reduce)').matches`);
  const seen: T[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.evaluate(COLOURS_LANDED);
    seen.push(await look(colorScheme));
  }
  // Light first, motion second: the other way round, every colour would glide back from dark for
  // 150 ms, under whatever the test checks next (an axe run saw dark surfaces under light text).
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  if (!motionWasReduced) await page.emulateMedia({ reducedMotion: null });
  return seen;
}
