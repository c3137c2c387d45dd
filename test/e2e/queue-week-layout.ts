import type { Page } from 'playwright';

/** The cells of a queue row, in the order they are laid out. */
const CELLS = [
  '.queue-check',
  '.queue-handle',
  '.queue-position',
  '.queue-art',
  '.queue-title',
  '.queue-year',
  '.queue-runtime',
  '.queue-badge',
  '.queue-stars',
];
/** Narrower than this, a title is not readable. */
const MIN_TITLE_PX = 100;

/**
 * What is wrong with the layout of the queue rows on screen, in words (empty when nothing): two
 * shown cells drawn over each other, a cell outside its row, a cut-off title squeezed below MIN_TITLE_PX.
 * Cells dropped at this width (display: none) are not counted.
 */
export function overlapsInRows(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(${findOverlaps})(${JSON.stringify(CELLS)}, ${MIN_TITLE_PX})`);
}

/** Runs in the page (its source is sent as text: the test's TypeScript has no DOM types). */
const findOverlaps = `(cells, minTitle) => {
  const problems = [];
  const rows = [...document.querySelectorAll('[role="listitem"] .queue-row, .queue-saved-row')];
  const view = document.querySelector('#content')?.getBoundingClientRect();
  for (const rowElement of rows) {
    const box = rowElement.getBoundingClientRect();
    if (view && (box.bottom <= view.top || box.top >= view.bottom)) continue;
    const name = rowElement.querySelector('.queue-title')?.textContent ?? '?';
    const shown = cells.flatMap((selector) => {
      const el = rowElement.querySelector(selector);
      const r = el?.getBoundingClientRect();
      return el && r && r.width > 0 && getComputedStyle(el).visibility !== 'hidden' ? [{ selector, r, cut: el.scrollWidth > el.clientWidth + 1 }] : [];
    });
    for (const { selector, r, cut } of shown) {
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5) problems.push(name + ': ' + selector + ' outside its row');
      if (selector === '.queue-title' && cut && r.width < minTitle) problems.push(name + ': title cut to ' + Math.round(r.width) + ' px');
    }
    for (let i = 0; i < shown.length; i++) {
      for (let j = i + 1; j < shown.length; j++) {
        const a = shown[i], b = shown[j];
        const across = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const down = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        if (across > 0.5 && down > 0.5) problems.push(name + ': ' + a.selector + ' over ' + b.selector + ' by ' + Math.round(across) + ' px');
      }
    }
  }
  return problems;
}`;
