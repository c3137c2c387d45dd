import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ImportCandidate } from '../../../shared/import-export.ts';
import type { QueueKind, UserRating } from '../../../shared/models.ts';
import { BoxArt } from '../../components/catalog/BoxArt.tsx';
import { cardMeta } from '../../components/catalog/format.ts';
import { appErrorOf } from '../../queries/call.ts';
import { importQueries } from '../../queries/import.ts';
import { countOf } from '../../words.ts';
import type { ImportEvent } from './import-phase.ts';
import {
  chosenTitle,
  entryWords,
  offered,
  OTHER_QUEUE,
  ratingReplaced,
  type ReviewOptions,
  type ReviewRow,
} from './review-state.ts';

interface RowProps {
  row: ReviewRow;
  options: ReviewOptions;
  /** Refs in the target queue now: a chosen title there is marked, and left where it is. */
  queued: ReadonlySet<string>;
  /** The person's own ratings of the titles the file rates. */
  had: ReadonlyMap<string, UserRating | null>;
  dispatch: (event: ImportEvent) => void;
}

const QUEUE_NAMES: Record<QueueKind, string> = { instant: 'instant queue', disc: 'disc queue' };
const OFFERED_BY: Record<QueueKind, string> = { instant: 'for streaming', disc: 'on disc' };

const NOTHING_CHOSEN = {
  matched: 'Skipped: nothing will be imported for this entry.',
  choice: 'Not chosen yet: pick the title this entry means, or it is skipped.',
  missing: 'Not in the catalog: search by hand, or it is skipped.',
} as const;

const STARS = (n: number) => `${'★'.repeat(n)}${'☆'.repeat(5 - n)}`;
/** "3 ★", or "Not interested". */
const ratingWords = (r: UserRating) => (r === 'not_interested' ? 'Not interested' : `${r} ★`);

/**
 * One entry of the file under review: how the file writes it, the title chosen for it (with what
 * will happen to it), and the choice itself: the matcher's candidates and a hand search's as
 * radio buttons, "Skip this entry" last. A certain match shows its choice behind "Change".
 */
export function ReviewRowView({ row, options, queued, had, dispatch }: RowProps) {
  const [open, setOpen] = useState(row.match.status !== 'matched');
  const chosen = chosenTitle(row);
  const { entry } = row;
  const mine = options.setRatings ? ratingReplaced(row, had) : null;
  const onChoose = (index: number, ref: string | null) => dispatch({ type: 'choose', index, ref });
  const onFound = (index: number, more: ImportCandidate[]) => dispatch({ type: 'found', index, more });
  return (
    <li className={`import-row ${row.match.status}`} data-line={entry.line}>
      <div className="import-row-head">
        <span className="import-line">Line {entry.line}</span>
        <span className="import-entry">{entryWords(entry)}</span>
        {entry.rating !== null && (
          <span
            className="import-rating"
            aria-label={entry.rating === 'not_interested' ? 'Not interested' : `Your rating: ${entry.rating} of 5`}
          >
            {entry.rating === 'not_interested' ? 'Not interested' : STARS(entry.rating)}
          </span>
        )}
        <span className="import-reason muted small">{row.match.reason}</span>
      </div>
      <div className="import-outcome">
        {chosen ? (
          <ChosenTitle title={chosen} options={options} queued={queued.has(chosen.ref)} />
        ) : (
          <p className="import-none muted small">{NOTHING_CHOSEN[row.match.status]}</p>
        )}
        {row.match.status === 'matched' && (
          <button
            type="button"
            className="button subtle small"
            aria-expanded={open}
            aria-label={`${open ? 'Done' : 'Change'}: “${entry.title}”, line ${entry.line}`}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? 'Done' : 'Change'}
          </button>
        )}
      </div>
      {mine !== null && entry.rating !== null && (
        <RatingClash
          row={row}
          mine={mine}
          theirs={entry.rating}
          onKeep={(keep) => dispatch({ type: 'keep-rating', index: row.index, keep })}
        />
      )}
      {open && <Choice row={row} onChoose={onChoose} onFound={onFound} />}
    </li>
  );
}

/** A rating the file would write over the person's own: said so, with the choice to keep theirs. */
function RatingClash({
  row,
  mine,
  theirs,
  onKeep,
}: {
  row: ReviewRow;
  mine: UserRating;
  theirs: UserRating;
  onKeep: (keep: boolean) => void;
}) {
  return (
    <div className="import-clash">
      <p className="small">
        You rated this {ratingWords(mine)}; the file says {ratingWords(theirs)}.
        {row.keepRating ? ' Yours stays.' : ' The file’s will replace yours.'}
      </p>
      <label className="import-check small">
        <input type="checkbox" checked={row.keepRating} onChange={(e) => onKeep(e.target.checked)} />
        Keep my rating<span className="visually-hidden"> of {entryWords(row.entry)}</span>
      </label>
    </div>
  );
}

function ChosenTitle({ title, options, queued }: { title: ImportCandidate; options: ReviewOptions; queued: boolean }) {
  const { kind } = options;
  const place = title.placement[kind];
  const other = OTHER_QUEUE[kind];
  return (
    <div className="import-chosen">
      <BoxArt art={title.boxArt} size="small" className="import-thumb" />
      <span className="import-chosen-name">{title.title}</span>
      <span className="muted small">{cardMeta(title)}</span>
      {queued && <span className="import-badge queued">Already in your queue</span>}
      {!queued && place === 'later' && <span className="import-badge later">Coming later: goes to Saved</span>}
      {!queued && place === 'never' && title.placement[other] === 'never' && (
        <span className="import-badge never">Not offered {OFFERED_BY[kind]}</span>
      )}
      {!queued && place === 'never' && title.placement[other] !== 'never' && (
        <span className={`import-badge other ${options.otherQueue ? 'later' : 'never'}`}>
          {options.otherQueue
            ? `Only ${OFFERED_BY[other]}: goes to your ${QUEUE_NAMES[other]}`
            : `Only ${OFFERED_BY[other]}: can go to your ${QUEUE_NAMES[other]} (see Confirm)`}
        </span>
      )}
    </div>
  );
}

/** The candidates as one radio group, "Skip this entry" last, and a search for another title. */
interface ChoiceProps {
  row: ReviewRow;
  onChoose: (index: number, ref: string | null) => void;
  onFound: (index: number, found: ImportCandidate[]) => void;
}

function Choice({ row, onChoose, onFound }: ChoiceProps) {
  const legendId = useId();
  const name = `import-choice-${row.index}`;
  const candidates = offered(row);
  return (
    <div className="import-choice">
      {candidates.length > 0 && (
        <fieldset className="import-options" aria-labelledby={legendId}>
          <legend id={legendId} className="visually-hidden">
            Which title is {entryWords(row.entry)}, line {row.entry.line}?
          </legend>
          {candidates.map((c) => (
            <label key={c.ref} className="import-option">
              <input
                type="radio"
                name={name}
                value={c.ref}
                checked={row.chosen === c.ref}
                onChange={() => onChoose(row.index, c.ref)}
              />
              <BoxArt art={c.boxArt} size="small" className="import-thumb" />
              <span className="import-option-text">
                <span className="import-option-name">{c.title}</span>
                <span className="muted small">{cardMeta(c)}</span>
              </span>
            </label>
          ))}
          <label className="import-option skip">
            <input
              type="radio"
              name={name}
              value=""
              checked={row.chosen === null}
              onChange={() => onChoose(row.index, null)}
            />
            <span>Skip this entry</span>
          </label>
        </fieldset>
      )}
      <HandSearch row={row} onFound={onFound} />
    </div>
  );
}

/** "Search by hand": the catalog searched for a term; what it finds joins the row's choices. */
function HandSearch({ row, onFound }: Pick<ChoiceProps, 'row' | 'onFound'>) {
  const client = useQueryClient();
  const inputId = useId();
  const [term, setTerm] = useState(row.match.status === 'missing' ? row.entry.title : '');
  const [state, setState] = useState<{ busy: boolean; words: string }>({
    busy: false,
    words: '',
  });
  const search = async (e: FormEvent) => {
    e.preventDefault();
    if (!term.trim()) return;
    setState({ busy: true, words: 'Searching…' });
    try {
      const found = await client.fetchQuery(importQueries.search(term.trim()));
      onFound(row.index, found);
      setState({
        busy: false,
        words:
          found.length === 0
            ? `No titles match “${term.trim()}”. Try fewer words.`
            : `${countOf(found.length, 'title')} found: choose one above.`,
      });
    } catch (error) {
      setState({ busy: false, words: appErrorOf(error).message });
    }
  };
  return (
    <form
      className="import-search"
      onSubmit={search}
      role="search"
      aria-label={`Search the catalog for line ${row.entry.line}`}
    >
      <label htmlFor={inputId} className="visually-hidden">
        Search the catalog for {entryWords(row.entry)}
      </label>
      <input
        id={inputId}
        className="input small"
        type="search"
        placeholder="Search the catalog by hand"
        value={term}
        onChange={(e) => setTerm(e.target.value)}
      />
      <button type="submit" className="button small" disabled={state.busy || !term.trim()}>
        Search
      </button>
      <span className="muted small" role="status">
        {state.words}
      </span>
    </form>
  );
}
