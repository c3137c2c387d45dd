import type { ReactNode } from 'react';

/** A polite live region: its text (a result count, "Moved Alien to position 3") is announced when it changes. */
export function LiveRegion({
  children,
  visible = true,
  className = 'result-count',
}: {
  children: ReactNode;
  visible?: boolean;
  className?: string;
}) {
  return (
    <p className={visible ? className : 'visually-hidden'} role="status" aria-live="polite" aria-atomic="true">
      {children}
    </p>
  );
}
