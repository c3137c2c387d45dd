import type { ReactNode } from 'react';
import { LiveRegion } from './LiveRegion.tsx';

/**
 * A screen's frame: the section named by its one heading, the count announced once it is known,
 * and an optional line saying what the screen is for.
 */
export function ScreenFrame({
  title,
  count,
  lede,
  children,
}: {
  title: string;
  count?: string | null;
  lede?: string;
  children: ReactNode;
}) {
  return (
    <section className="screen" aria-labelledby="screen-heading">
      <header className="screen-header">
        <h1 id="screen-heading" className="screen-title">
          {title}
        </h1>
        {count && <LiveRegion>{count}</LiveRegion>}
      </header>
      {lede && <p className="screen-lede">{lede}</p>}
      {children}
    </section>
  );
}
