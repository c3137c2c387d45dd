import axe from 'axe-core';
import type { Page } from 'playwright';
import { expect } from 'vitest';

/** A violation as the page reports it back: only what the failure message names. */
interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; failureSummary: string }[];
}

/**
 * The rules a colour scheme can change. Everything else axe checks (names, roles, labels,
 * landmarks, structure) reads the DOM, which is the same in both schemes: the themes differ only
 * in CSS variables (renderer/styles/tokens.css).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Runs axe on the page in both colour schemes and fails on any serious or critical violation,
 * naming the rule and the elements, so the message says what to fix. In the light scheme every
 * rule runs; in the dark one the colour rules, as nothing else can differ.
 *
 * axe-core runs in the page itself (`axe.run`, for a page without frames, as the app's are),
 * injected once per document, and sends back its violations alone. @axe-core/playwright's builder
 * evaluated the 550 kB script twice for every run and sent every result through the test worker:
 * ≈ 0.3 s of a renderer's CPU even on a page of 22 elements.
 */
export async function expectNoSeriousAxe(page: Page, what = 'page'): Promise<void> {
  const found: string[] = [];
  await injectAxe(page);
  for (const colorScheme of ['light', 'dark'] as const) {
    // Reduced motion: the app's transitions take 0 ms, so colours are judged where they land, not midway.
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.evaluate(COLOURS_LANDED);
    const rules = colorScheme === 'light' ? null : COLOUR_RULES;
    for (const v of await page.evaluate<Violation[]>(runAxe(rules))) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      const targets = v.nodes
        .slice(0, 5)
        .map(
          (n) => `${n.target}${n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1).join(' ').trim()})` : ''}`,
        );
      found.push(`[${colorScheme}] ${v.id} (${v.impact}): ${v.help}\n    ${targets.join('\n    ')}`);
    }
  }
  // Light first, motion second (as shots.ts): no colour glides back from dark under the next check.
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await page.emulateMedia({ reducedMotion: null });
  expect(found, `axe on ${what}`).toEqual([]);
}

/**
 * In the page: settles once the scheme's styles are applied (two frames) and every CSS transition
 * running has ended. A change of scheme can start a transition before the reduced motion applies
 * (seen: light text over a dark segment's background); axe must judge the colours where they land.
 * (In-page code is a string here, as in shots.ts: the test project's types have no DOM.)
 */
const COLOURS_LANDED = `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))).then(() =>
  Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => {}))))`;

/** Evaluates axe-core's source unless this document already holds it (a navigation starts afresh). */
async function injectAxe(page: Page): Promise<void> {
  if (await page.evaluate<boolean>('typeof window.axe === "object"')) return;
  await page.evaluate(axe.source);
}

/** In the page: axe.run over the document (only `rules` when given), its violations as plain data. */
function runAxe(rules: string[] | null): string {
  const options = { resultTypes: ['violations'], ...(rules ? { runOnly: { type: 'rule', values: rules } } : {}) };
  return `axe.run(document, ${JSON.stringify(options)}).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact ?? null, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), failureSummary: n.failureSummary ?? '' })),
  })))`;
}
