/**
 * Where focus goes when an action takes away the control that had it (a removed row, a closed
 * menu, a toast's Undo): the next sensible control, never the page body.
 */

/** Frames (about 10 s) to wait for the pressed control to go: an undo's toast changes once the service answers. */
const MAX_FRAMES = 600;

/**
 * Once `from` (the control pressed) has left the page, focus goes to what `next()` finds then (else
 * the screen's heading); nothing when the person has moved focus elsewhere meanwhile.
 */
export function landFocus(from: Element | null, next: () => HTMLElement | null | undefined): void {
  let frames = 0;
  const step = () => {
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    if (!lost) {
      if (active === from && from.isConnected && frames++ < MAX_FRAMES) requestAnimationFrame(step);
      return;
    }
    (next() ?? document.querySelector<HTMLElement>('#screen-heading'))?.focus();
  };
  requestAnimationFrame(step);
}

/** The queue's ordered list (focusable itself when no row is left to take focus). */
export function queueListElement(): HTMLElement | null {
  return document.querySelector<HTMLElement>('.queue-list');
}

/** A control's name without the title it names: "Move “Alien” to bottom" → "Move “” to bottom". */
function nameShape(control: Element): string {
  return (control.getAttribute('aria-label') ?? '').replace(/“[^”]*”/, '“”');
}

/**
 * The control in `row` like `control`: the same name but for the title ("Move … to bottom"), else
 * one of the same verb ("Remove", "Move"), else the row's title.
 */
export function controlLike(row: Element | null | undefined, control: Element | null): HTMLElement | null {
  if (!row) return null;
  const buttons = [...row.querySelectorAll<HTMLElement>('button[aria-label]')];
  const shape = control ? nameShape(control) : '';
  const verb = shape.split(' ')[0];
  return (
    (shape ? buttons.find((b) => nameShape(b) === shape) : undefined) ??
    (verb ? buttons.find((b) => b.getAttribute('aria-label')!.startsWith(`${verb} `)) : undefined) ??
    row.querySelector<HTMLElement>('.queue-title')
  );
}

/**
 * After the row at `index` went away: the same control in the row that took its place, else in
 * the row before it (it was the last), else `fallback()`.
 */
export function nearRow(
  rowAt: (index: number) => Element | null | undefined,
  index: number,
  control: Element | null,
  fallback: () => HTMLElement | null,
): HTMLElement | null {
  return controlLike(rowAt(index), control) ?? controlLike(index > 0 ? rowAt(index - 1) : null, control) ?? fallback();
}

/** The title button of `ref`'s row, in the ordered list or the saved titles, if it is in the page. */
export function titleOf(ref: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-ref="${CSS.escape(ref)}"] .queue-title`);
}

interface ContentChange {
  before: { order: readonly string[]; saved: readonly { ref: string }[] };
  after: { order: readonly string[]; saved: readonly { ref: string }[] };
}

/** The title an undo of `change` brings back (one it took out), else the one it moved furthest; null when none. */
export function undoneTitle(change: ContentChange): string | null {
  const refs = (c: ContentChange['before']) => [...c.order, ...c.saved.map((i) => i.ref)];
  const after = new Set(refs(change.after));
  const back = refs(change.before).find((ref) => !after.has(ref));
  if (back) return back;
  let furthest: string | null = null;
  let distance = 0;
  change.before.order.forEach((ref, i) => {
    const moved = Math.abs(change.after.order.indexOf(ref) - i);
    if (moved > distance) [furthest, distance] = [ref, moved];
  });
  return furthest;
}
