import { useQuery } from '@tanstack/react-query';
import { useMemo, type MouseEvent } from 'react';
import type { UserRating } from '../../../shared/models.ts';
import { importQueries } from '../../queries/import.ts';
import { queueQueries } from '../../queries/queue.ts';
import { countOf } from '../../words.ts';
import type { ImportEvent, Review } from './import-phase.ts';
import { ImportTarget } from './ImportTarget.tsx';
import { ReviewRowView } from './ReviewRow.tsx';
import { countByStatus, GROUPS, ratedRefs, tally } from './review-state.ts';

/** A jump link moves focus to its section (and scrolls to it) without touching the address. */
function jumpTo(e: MouseEvent<HTMLAnchorElement>): void {
  const target = document.getElementById(e.currentTarget.hash.slice(1));
  if (!target) return;
  e.preventDefault();
  target.focus();
  target.scrollIntoView({ block: 'start' });
}

const NO_RATINGS: ReadonlyMap<string, UserRating | null> = new Map();

/**
 * The review before anything changes: the file's entries in three groups (needs a choice, not
 * found, matched) with their counts, what confirming would do so far (it follows every choice),
 * each row changeable; then where the titles go and one Confirm. Links at the top jump to each
 * group and to the confirmation. Its state is the import's (useImportState.ts): it survives leaving.
 */
export function ImportReview({
  review,
  dispatch,
  onConfirm,
  onStartOver,
}: {
  review: Review;
  dispatch: (event: ImportEvent) => void;
  onConfirm: () => void;
  onStartOver: () => void;
}) {
  const { matched, rows, options } = review;
  const { file } = matched;
  // Asked again when the review opens: another device may have changed the queue since it was read.
  const queue = useQuery({ ...queueQueries.list(options.kind), staleTime: 0 });
  const queued = useMemo(() => new Set((queue.data?.items ?? []).map((i) => i.ref)), [queue.data]);
  const rated = useMemo(() => (options.setRatings ? ratedRefs(rows) : []), [rows, options.setRatings]);
  const had = useQuery(importQueries.ratingsHad(rated)).data ?? NO_RATINGS;
  const counts = countByStatus(rows);
  const sums = tally(rows, options, queued, had);

  return (
    <div className="import-review">
      <p className="import-summary">
        <strong>{matched.name}</strong> · read as a {file.label} · {countOf(file.entries.length, 'entry', 'entries')}
      </p>
      <nav className="import-jumps" aria-label="Review">
        {GROUPS.map((g) => (
          <a key={g.status} href={`#import-${g.status}`} className={`import-jump ${g.status}`} onClick={jumpTo}>
            {g.heading} <span className="import-count">{counts[g.status]}</span>
          </a>
        ))}
        <a href="#import-confirm" className="import-jump confirm" onClick={jumpTo}>
          Review and confirm
        </a>
      </nav>
      <p className="import-tally small" aria-live="polite">
        {options.addToQueue && <span>To add: {countOf(sums.toAdd, 'title')}</span>}
        {options.setRatings && file.hasRatings && <span>Ratings to set: {sums.ratings}</span>}
        <span>Skipped: {countOf(sums.skipped, 'entry', 'entries')}</span>
      </p>
      {file.skipped.length > 0 && (
        <details className="import-skipped">
          <summary>{countOf(file.skipped.length, 'line')} could not be read and will be left out</summary>
          <ul>
            {file.skipped.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </details>
      )}
      {GROUPS.map((g) => {
        const inGroup = rows.filter((r) => r.match.status === g.status);
        return (
          <section
            key={g.status}
            id={`import-${g.status}`}
            className="import-group"
            aria-labelledby={`import-${g.status}-heading`}
            tabIndex={-1}
          >
            <h2 id={`import-${g.status}-heading`} className="section-title">
              {g.heading} <span className="import-count">{inGroup.length}</span>
            </h2>
            {inGroup.length === 0 ? (
              <p className="muted small">None.</p>
            ) : (
              <ul className="import-rows">
                {inGroup.map((row) => (
                  <ReviewRowView
                    key={row.index}
                    row={row}
                    options={options}
                    queued={queued}
                    had={had}
                    dispatch={dispatch}
                  />
                ))}
              </ul>
            )}
          </section>
        );
      })}
      <ImportTarget
        file={file}
        options={options}
        sums={sums}
        onChange={(next) => dispatch({ type: 'options', options: next })}
        onConfirm={onConfirm}
        onStartOver={onStartOver}
      />
    </div>
  );
}
