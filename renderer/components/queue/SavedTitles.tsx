import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import type { QueueItem, TitleDetail } from '../../../shared/models.ts';
import { catalogQueries } from '../../queries/catalog.ts';
import { formatDate, formatRuntime } from './words.ts';

/** The first release date still to come among a title's formats (unix seconds), if any. */
function expectedFrom(detail: TitleDetail | undefined, now: number): number | null {
  const future = (detail?.availability ?? []).map((a) => a.from).filter((from) => from > now);
  return future.length ? Math.min(...future) : null;
}

/**
 * Saved titles (not yet released), apart from the ordered queue: they cannot be moved until they
 * are available, so each says when that is expected (from the title's own availability).
 */
export function SavedTitles({
  items,
  onOpen,
  onRemove,
}: {
  items: readonly QueueItem[];
  onOpen: (item: QueueItem) => void;
  onRemove: (item: QueueItem) => void;
}) {
  const details = useQueries({
    queries: items.map((i) => ({ ...catalogQueries.title(i.ref), staleTime: 10 * 60_000 })),
  });
  const [now] = useState(() => Date.now() / 1000);
  if (items.length === 0) return null;
  return (
    <section className="queue-saved" aria-labelledby="queue-saved-heading">
      <h2 id="queue-saved-heading">
        Saved <span className="muted">· {items.length}</span>
      </h2>
      <ul aria-labelledby="queue-saved-heading">
        {items.map((item, i) => {
          const from = expectedFrom(details[i]?.data, now);
          return (
            <li key={item.ref} className="queue-saved-row">
              <img
                className="queue-art"
                src={item.boxArt.small || item.boxArt.medium}
                alt=""
                loading="lazy"
                width={32}
                height={48}
              />
              <div className="queue-name">
                <button type="button" className="queue-title" title={item.title} onClick={() => onOpen(item)}>
                  {item.title}
                </button>
                {item.year !== null && <span className="queue-year">{item.year}</span>}
              </div>
              <span className="queue-runtime">{formatRuntime(item.runtimeSeconds)}</span>
              <span className="queue-badge awaiting">
                {from
                  ? `Expected ${formatDate(from)}`
                  : details[i]?.isPending
                    ? 'Awaiting release'
                    : 'Release date not announced'}
              </span>
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove “${item.title}”`}
                onClick={() => onRemove(item)}
              >
                ✕
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
