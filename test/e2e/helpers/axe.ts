import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright';
import { expect } from 'vitest';

/**
 * Runs axe on the page in both colour schemes and fails on any serious or critical violation,
 * naming the rule and the elements, so the message says what to fix.
 */
export async function expectNoSeriousAxe(page: Page, what = 'page'): Promise<void> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    // Reduced motion: the app's transitions take 0 ms, so colours are judged where they land, not midway.
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    const result = await new AxeBuilder({ page }).analyze();
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
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: null });
  expect(found, `axe on ${what}`).toEqual([]);
}
