import type { ReactNode } from 'react';
import { LiveRegion } from './LiveRegion.tsx';

/**
 * A screen's frame: the section named by its one heading, the count announced once it is known,
 * any controls beside the heading, and an optional line saying what the screen is for.
 */
export function ScreenFrame({
  title,
  count,
  lede,
  className,
  actions,
  children,
}: {
  title: string;
  count?: string | null;
  lede?: string;
  /** The screen's own class, beside `screen`, for its styles. */
  className?: string;
  /** Controls that belong beside the heading (a way back). */
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className={className ? `screen ${className}` : 'screen'} aria-labelledby="screen-heading">
      <header className="screen-header">
        <h1 id="screen-heading" className="screen-title">
          {title}
        </h1>
        {count && <LiveRegion>{count}</LiveRegion>}
        {actions}
      </header>
      {lede && <p className="screen-lede">{lede}</p>}
      {children}
    </section>
  );
}
