import { useEffect, useRef } from 'react';
import type { Panel } from '../../router.ts';
import { useNavigation } from '../../router.ts';
import { PersonPanel } from '../../screens/Person.tsx';
import { TitlePanel } from '../../screens/Title.tsx';

/** The title or person open beside the content; takes focus when it opens, Escape or Close shuts it. */
export function DetailPanel({ panel }: { panel: NonNullable<Panel> }) {
  const nav = useNavigation();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [panel.ref]);
  const label = panel.type === 'title' ? 'Title details' : 'Person details';
  return (
    <aside className="detail-panel" aria-label={label} ref={ref} tabIndex={-1}>
      <div className="detail-panel-bar">
        <button type="button" className="icon-button" onClick={nav.back} disabled={!nav.canGoBack} aria-label="Back" title="Back (Alt+←)">
          ←
        </button>
        <button type="button" className="icon-button" onClick={nav.closePanel} aria-label="Close details" title="Close (Escape)">
          ×
        </button>
      </div>
      <div className="detail-panel-body">
        {panel.type === 'title' ? <TitlePanel key={panel.ref} titleRef={panel.ref} /> : <PersonPanel key={panel.ref} personRef={panel.ref} />}
      </div>
    </aside>
  );
}
