import { useEffect, useRef } from 'react';
import type { Panel } from '../router.ts';
import { useNavigation } from '../router.ts';
import { PersonPanel } from '../screens/Person.tsx';
import { TitlePanel } from '../screens/Title.tsx';

/** Where focus was outside the panel when it opened: the element, and a way to find its like again if it was re-rendered. */
interface Opener {
  element: Element;
  selector: string | null;
}

function openerOf(active: Element | null): Opener | null {
  if (!active || active === document.body) return null;
  const row = active.closest<HTMLElement>('[data-ref]');
  const cls = active.classList[0];
  const selector =
    row && cls
      ? `[data-ref="${CSS.escape(row.dataset.ref!)}"] .${CSS.escape(cls)}`
      : active.id
        ? `#${CSS.escape(active.id)}`
        : null;
  return { element: active, selector };
}

/** Focus back where the panel was opened from (its control, or the same control re-rendered since). */
function returnFocus(opener: Opener | null): void {
  if (!opener || (document.activeElement && document.activeElement !== document.body)) return;
  const target = opener.element.isConnected
    ? opener.element
    : opener.selector
      ? document.querySelector(opener.selector)
      : null;
  (target as HTMLElement | null)?.focus();
}

/**
 * The title or person open beside the content; takes focus when it opens, Escape or Close shuts
 * it, and focus then goes back to the control that opened it.
 */
export function DetailPanel({ panel }: { panel: NonNullable<Panel> }) {
  const nav = useNavigation();
  const ref = useRef<HTMLElement>(null);
  const opener = useRef<Opener | null>(null);
  useEffect(() => {
    if (!ref.current?.contains(document.activeElement)) opener.current = openerOf(document.activeElement);
    ref.current?.focus();
  }, [panel.ref]);
  useEffect(() => () => returnFocus(opener.current), []);
  const label = panel.type === 'title' ? 'Title details' : 'Person details';
  return (
    <aside className="detail-panel" aria-label={label} ref={ref} tabIndex={-1}>
      <div className="detail-panel-bar">
        <button
          type="button"
          className="icon-button"
          onClick={nav.back}
          disabled={!nav.canGoBack}
          aria-label="Back"
          title="Back (Alt+←)"
        >
          ←
        </button>
        <button
          type="button"
          className="icon-button"
          onClick={nav.closePanel}
          aria-label="Close details"
          title="Close (Escape)"
        >
          ×
        </button>
      </div>
      <div className="detail-panel-body">
        {panel.type === 'title' ? (
          <TitlePanel key={panel.ref} titleRef={panel.ref} />
        ) : (
          <PersonPanel key={panel.ref} personRef={panel.ref} />
        )}
      </div>
    </aside>
  );
}
