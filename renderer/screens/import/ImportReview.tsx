import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type MouseEvent } from 'react';
import type { ImportCandidate } from '../../../shared/import-export.ts';
import { countOf } from '../../components/LiveRegion.tsx';
import { queueQueries } from '../../queries/queue.ts';
import type { MatchedFile } from '../../queries/import.ts';
import { ImportTarget } from './ImportTarget.tsx';
import { ReviewRowView } from './ReviewRow.tsx';
import {
  countByStatus,
  GROUPS,
  initialOptions,
  initialRows,
  ratingsToSet,
  refsToQueue,
  type ReviewOptions,
  type ReviewRow,
} from './review-state.ts';

/** A jump link moves focus to its section (and scrolls to it) without touching the address. */
function jumpTo(e: MouseEvent<HTMLAnchorElement>): void {
  const target = document.getElementById(e.currentTarget.hash.slice(1));
  if (!target) return;
  e.preventDefault();
  target.focus();
  target.scrollIntoView({ block: 'start' });
}

export interface ConfirmedImport {
  options: ReviewOptions;
  refs: string[];
  ratings: ReturnType<typeof ratingsToSet>;
}

/**
 * The review before anything changes: the file's entries in three groups (needs a choice, not
 * found, matched) with their counts, each row changeable; then where the titles go and one
 * Confirm. Links at the top jump to each group and to the confirmation.
 */
export function ImportReview({
  matched,
  preferredKind,
  onConfirm,
  onStartOver,
}: {
  matched: MatchedFile;
  preferredKind: ReviewOptions['kind'] | undefined;
  onConfirm(confirmed: ConfirmedImport): void;
  onStartOver(): void;
}) {
  const { file } = matched;
  const [rows, setRows] = useState<ReviewRow[]>(() => initialRows(file, matched.matches));
  const [options, setOptions] = useState<ReviewOptions>(() => initialOptions(file, preferredKind));
  // Asked again when the review opens: another device may have changed the queue since it was read.
  const queue = useQuery({ ...queueQueries.list(options.kind), staleTime: 0 });
  const queued = useMemo(() => new Set((queue.data?.items ?? []).map((i) => i.ref)), [queue.data]);
  const counts = countByStatus(rows);

  const choose = (index: number, ref: string | null) =>
    setRows((all) => all.map((r) => (r.index === index ? { ...r, chosen: ref } : r)));
  const found = (index: number, more: ImportCandidate[]) =>
    setRows((all) =>
      all.map((r) =>
        r.index === index
          ? {
              ...r,
              found: [...r.found, ...more.filter((m) => !r.found.some((f) => f.ref === m.ref))],
            }
          : r,
      ),
    );

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
                    kind={options.kind}
                    queued={queued}
                    onChoose={choose}
                    onFound={found}
                  />
                ))}
              </ul>
            )}
          </section>
        );
      })}
      <ImportTarget
        file={file}
        rows={rows}
        options={options}
        queued={queued}
        onChange={setOptions}
        onConfirm={() =>
          onConfirm({
            options,
            refs: refsToQueue(rows, options),
            ratings: ratingsToSet(rows, options),
          })
        }
        onStartOver={onStartOver}
      />
    </div>
  );
}
