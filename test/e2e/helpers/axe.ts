import axe from 'axe-core';
import type { Page } from 'playwright';
import { expect } from 'vitest';
import { inEachScheme } from './schemes.ts';

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
  await injectAxe(page);
  const found = await inEachScheme(page, async (scheme) => {
    const violations = await page.evaluate<Violation[]>(runAxe(scheme === 'light' ? null : COLOUR_RULES));
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `[${scheme}] ${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.slice(0, 5).map(describeNode).join('\n    ')}`,
      );
  });
  expect(found.flat(), `axe on ${what}`).toEqual([]);
}

/** An element axe found, and why, in one line. */
function describeNode(n: Violation['nodes'][number]): string {
  return `${n.target}${n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1).join(' ').trim()})` : ''}`;
}

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
