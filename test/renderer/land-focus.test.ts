// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { controlLike } from '../../renderer/components/queue/land-focus.ts';

/** A queue row as QueueRow renders it: its title button and its controls, each named with the title. */
function queueRow(title: string): HTMLElement {
  const row = document.createElement('div');
  row.innerHTML = `
    <button class="queue-title">${title}</button>
    <button aria-label="Move “${title}” to top"></button>
    <button aria-label="Move “${title}” to bottom"></button>
    <button aria-label="Remove “${title}”"></button>`;
  return row;
}

const named = (el: HTMLElement | null) => el?.getAttribute('aria-label') ?? el?.textContent;

describe('the control focus lands on when its row goes', () => {
  it('is the one with the same name but for the title', () => {
    const gone = queueRow('Alien').querySelector('[aria-label="Move “Alien” to bottom"]');
    expect(named(controlLike(queueRow('Heat'), gone))).toBe('Move “Heat” to bottom');
    const remove = queueRow('Alien').querySelector('[aria-label="Remove “Alien”"]');
    expect(named(controlLike(queueRow('Heat'), remove))).toBe('Remove “Heat”');
  });

  it('else one of the same verb, else the title', () => {
    const saved = document.createElement('button');
    saved.setAttribute('aria-label', 'Move “Alien” into the queue');
    expect(named(controlLike(queueRow('Heat'), saved))).toBe('Move “Heat” to top');
    const other = document.createElement('button');
    other.setAttribute('aria-label', 'Rate “Alien” 3 stars');
    expect(named(controlLike(queueRow('Heat'), other))).toBe('Heat');
    expect(controlLike(null, saved)).toBeNull();
  });
});
