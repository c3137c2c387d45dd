import { useQueries } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { QueueItem, QueueKind, TitleDetail } from '../../../shared/models.ts';
import { catalogQueries } from '../../queries/catalog.ts';
import { landFocus, nearRow, queueListElement } from './land-focus.ts';
import { queueRelease, type QueueRelease } from './saved-release.ts';
import { formatDate } from '../../words.ts';
import { formatRuntime } from './words.ts';

const UNKNOWN: QueueRelease = { openFormat: null, from: null };

/** "Expected 3 Feb 2027" (the queue's own format), or why there is no date. */
function releaseWords(release: QueueRelease, loading: boolean): string {
  if (release.from !== null) return `Expected ${formatDate(release.from)}`;
  return loading ? 'Awaiting release' : 'Release date not announced';
}

/**
 * Saved titles (not yet released in the queue's format), apart from the ordered queue: each says
 * when its format is expected (from the title's own availability); one whose window has opened
 * can be moved into the order. Focus moves to the next saved title when one leaves.
 */
export function SavedTitles({
  kind,
  items,
  onOpen,
  onRemove,
  onMoveIn,
}: {
  kind: QueueKind;
  items: readonly QueueItem[];
  onOpen: (item: QueueItem) => void;
  onRemove: (item: QueueItem) => void;
  /** Into the end of the order, in `format` (the one whose window is open). */
  onMoveIn: (item: QueueItem, format: string) => void;
}) {
  // Revalidated on each visit (a 304 when unchanged): a window that opened shows at once.
  const details = useQueries({ queries: items.map((i) => catalogQueries.title(i.ref)) });
  const [now] = useState(() => Date.now() / 1000);
  const list = useRef<HTMLUListElement>(null);
  if (items.length === 0) return null;

  /** Runs a saved title's action, then focus goes to the saved title that takes its place. */
  function leaving(index: number, act: () => void) {
    const control = document.activeElement;
    act();
    const rowAt = (i: number) => list.current?.children[i];
    landFocus(control, () => nearRow(rowAt, index, control, queueListElement));
  }

  return (
    <section className="queue-saved" aria-labelledby="queue-saved-heading">
      <h2 id="queue-saved-heading" tabIndex={-1}>
        Saved <span className="muted">· {items.length}</span>
      </h2>
      <ul aria-labelledby="queue-saved-heading" ref={list}>
        {items.map((item, i) => {
          const detail: TitleDetail | undefined = details[i]?.data;
          const release = detail ? queueRelease(detail.availability, kind, item.format, now) : UNKNOWN;
          const name = `“${item.title}”`;
          return (
            <li key={item.ref} className="queue-saved-row" data-ref={item.ref}>
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
              {release.openFormat ? (
                <button
                  type="button"
                  className="button small queue-move-in"
                  aria-label={`Move ${name} into the queue`}
                  title={`Available now: ${item.title} can join the order`}
                  onClick={() => leaving(i, () => onMoveIn(item, release.openFormat!))}
                >
                  Move into the queue
                </button>
              ) : (
                <span className="queue-badge awaiting">{releaseWords(release, details[i]?.isPending ?? true)}</span>
              )}
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove ${name}`}
                onClick={() => leaving(i, () => onRemove(item))}
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
