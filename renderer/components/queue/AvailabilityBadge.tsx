import { useState } from 'react';
import { formatDate } from '../../words.ts';

/**
 * The queue's availability words as a badge: "Available until 12 Mar 2027" (amber when it ends
 * within a month; "Until 12 Mar 2027" in a narrow queue), "Awaiting release", "Available now".
 * Colour is never the only signal: the words say it.
 */
const MONTH = 31 * 24 * 3600;

export function AvailabilityBadge({ availability }: { availability: string }) {
  const [now] = useState(() => Date.now() / 1000);
  const until = /until (\d{4}-\d{2}-\d{2})/.exec(availability)?.[1];
  if (until) {
    const soon = Date.parse(`${until}T00:00:00Z`) / 1000 - now < MONTH;
    return (
      <span className={soon ? 'queue-badge ending' : 'queue-badge'}>
        <span className="words-wide">Available until</span>
        <span className="words-narrow">Until</span> {formatDate(until)}
      </span>
    );
  }
  if (/awaiting/.test(availability)) return <span className="queue-badge awaiting">Awaiting release</span>;
  if (/saved/.test(availability)) return <span className="queue-badge awaiting">Saved</span>;
  return (
    <span className="queue-badge now">
      {availability ? availability[0]!.toUpperCase() + availability.slice(1) : ''}
    </span>
  );
}
