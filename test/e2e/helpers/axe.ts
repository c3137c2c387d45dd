import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright';
import { expect } from 'vitest';

/**
 * Runs axe on the page in both colour schemes and fails on any serious or critical violation,
 * naming the rule and the elements, so the message says what to fix.
 *
 * axe runs in the page itself (`axe.run`, AxeBuilder's legacy mode, for a page without frames, as
 * the app's are) and gathers its selectors and HTML for violations only: the default mode's
 * per-frame partial results (a megabyte of JSON through the test worker) and the blank page it
 * opens to merge them cost 2–3 s of CPU a run here, against 0.6 s for the same violations.
 */
export async function expectNoSeriousAxe(page: Page, what = 'page'): Promise<void> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    // Reduced motion: the app's transitions take 0 ms, so colours are judged where they land, not midway.
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    const axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
    const result = await (page.frames().length === 1 ? axe.setLegacyMode() : axe).analyze();
    for (const v of result.violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      const targets = v.nodes
        .slice(0, 5)
        .map(
          (n) =>
            `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1).join(' ').trim()})` : ''}`,
        );
      found.push(`[${colorScheme}] ${v.id} (${v.impact}): ${v.help}\n    ${targets.join('\n    ')}`);
    }
  }
  // Light first, motion second (as shots.ts): no colour glides back from dark under the next check.
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await page.emulateMedia({ reducedMotion: null });
  expect(found, `axe on ${what}`).toEqual([]);
}
