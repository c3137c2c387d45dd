import type { ReactNode } from 'react';

/** Grey shapes in the form of what is loading (never a spinner on an empty page). Hidden from assistive technology; the caller says "Loading…" once. */
export function SkeletonLines({ lines = 3, width = '100%' }: { lines?: number; width?: string }) {
  return (
    <div className="skeleton-lines" aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="skeleton skeleton-line" style={{ width: i === lines - 1 ? '60%' : width }} />
      ))}
    </div>
  );
}

/** A grid of poster-shaped cards. */
export function SkeletonGrid({ count = 12 }: { count?: number }) {
  return (
    <div className="skeleton-grid" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="skeleton-card">
          <span className="skeleton skeleton-poster" />
          <span className="skeleton skeleton-line" />
          <span className="skeleton skeleton-line short" />
        </div>
      ))}
    </div>
  );
}

/** Rows of a list: small art, two lines. */
export function SkeletonRows({ count = 8 }: { count?: number }) {
  return (
    <div className="skeleton-rows" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="skeleton-row">
          <span className="skeleton skeleton-thumb" />
          <span className="skeleton-row-text">
            <span className="skeleton skeleton-line" />
            <span className="skeleton skeleton-line short" />
          </span>
        </div>
      ))}
    </div>
  );
}

/** The loading state of a screen: the skeleton plus one polite "Loading…" for screen readers. */
export function Loading({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="loading" aria-busy="true">
      <span className="visually-hidden" role="status">
        {label}
      </span>
      {children}
    </div>
  );
}
