// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createElement, useState } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import { SegmentedControl, type Segment } from '../../renderer/components/SegmentedControl.tsx';

/**
 * The segmented control every screen uses for one choice out of a few (Browse's type, History's
 * view, the theme, the ratings' order): a WAI-ARIA radio group, one Tab stop, arrows, Home and End
 * move and choose.
 */
type View = 'all' | 'watched' | 'shipped' | 'returned';
const VIEWS: Segment<View>[] = [
  { value: 'all', label: 'All' },
  { value: 'watched', label: 'Watched' },
  { value: 'shipped', label: 'Shipped' },
  { value: 'returned', label: 'Returned' },
];

/** The control as a screen holds it: the choice in the screen's state; every change is recorded. */
function showViews(first: View = 'all') {
  const changes: View[] = [];
  function Screen() {
    const [view, setView] = useState<View>(first);
    return createElement(
      'div',
      null,
      createElement('button', { type: 'button' }, 'Before'),
      createElement(SegmentedControl<View>, {
        label: 'Show',
        segments: VIEWS,
        value: view,
        onChange: (next: View) => {
          changes.push(next);
          setView(next);
        },
      }),
      createElement('button', { type: 'button' }, 'After'),
    );
  }
  render(createElement(Screen));
  return { changes, user: userEvent.setup() };
}

const radio = (name: string) => screen.getByRole('radio', { name });
const checked = () => screen.getAllByRole('radio', { checked: true }).map((r) => r.textContent);

afterEach(cleanup);

describe('SegmentedControl', () => {
  test('is a radio group named by its label, one radio per segment, the chosen one checked', () => {
    showViews('watched');
    const group = screen.getByRole('radiogroup', { name: 'Show' });
    expect(group.querySelectorAll('[role="radio"]')).toHaveLength(4);
    expect(checked()).toEqual(['Watched']);
    expect(radio('All').getAttribute('aria-checked')).toBe('false');
  });

  test('a group named by a visible label takes its words', () => {
    render(
      createElement(
        'div',
        null,
        createElement('span', { id: 'theme-label' }, 'Theme'),
        createElement(SegmentedControl<'light' | 'dark'>, {
          labelledBy: 'theme-label',
          segments: [
            { value: 'light', label: 'Light' },
            { value: 'dark', label: 'Dark' },
          ],
          value: 'dark',
          onChange: () => {},
        }),
      ),
    );
    expect(screen.getByRole('radiogroup', { name: 'Theme' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Dark', checked: true })).toBeTruthy();
  });

  test('Tab enters on the chosen segment and leaves the group in one step', async () => {
    const { user } = showViews('shipped');
    screen.getByRole('button', { name: 'Before' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(radio('Shipped'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'After' }));
  });

  test('Right and Down arrows move to the next segment and choose it, wrapping at the end', async () => {
    const { user, changes } = showViews('shipped');
    radio('Shipped').focus();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(radio('Returned'));
    expect(checked()).toEqual(['Returned']);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(radio('All'));
    expect(checked()).toEqual(['All']);
    expect(changes).toEqual(['returned', 'all']);
  });

  test('Left and Up arrows move to the previous segment and choose it, wrapping at the start', async () => {
    const { user, changes } = showViews('watched');
    radio('Watched').focus();
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(radio('All'));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(radio('Returned'));
    expect(checked()).toEqual(['Returned']);
    expect(changes).toEqual(['all', 'returned']);
  });

  test('Home and End choose the first and the last segment', async () => {
    const { user, changes } = showViews('watched');
    radio('Watched').focus();
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(radio('Returned'));
    expect(checked()).toEqual(['Returned']);
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(radio('All'));
    expect(checked()).toEqual(['All']);
    expect(changes).toEqual(['returned', 'all']);
  });

  test('after an arrow, the newly chosen segment is the one Tab stop', async () => {
    const { user } = showViews('all');
    radio('All').focus();
    await user.keyboard('{ArrowRight}');
    expect(radio('Watched').tabIndex).toBe(0);
    expect(
      screen
        .getAllByRole('radio')
        .filter((r) => r.tabIndex === 0)
        .map((r) => r.textContent),
    ).toEqual(['Watched']);
  });

  test('a click chooses a segment; choosing the one already chosen changes nothing', async () => {
    const { user, changes } = showViews('all');
    await user.click(radio('Shipped'));
    expect(checked()).toEqual(['Shipped']);
    await user.click(radio('Shipped'));
    expect(changes).toEqual(['shipped']);
  });

  test('other keys are left to the page', async () => {
    const { user, changes } = showViews('all');
    radio('All').focus();
    await user.keyboard('a');
    expect(checked()).toEqual(['All']);
    expect(changes).toEqual([]);
  });
});
