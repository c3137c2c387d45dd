import { useQuery } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import { catalogQueries, normaliseTerm } from '../../queries/catalog.ts';
import { SEARCH_INPUT_ID } from '../frame/useShortcuts.ts';
import { useDebounced } from './useDebounced.ts';

const SUGGEST_DELAY_MS = 150;

export interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
  /** Enter on the box, or a suggestion chosen (its text). */
  onSubmit: (term: string) => void;
}

/**
 * The search box with autocomplete: an ARIA 1.2 combobox. Suggestions come while typing
 * (debounced); ArrowDown/ArrowUp move through them, Enter takes the highlighted one (or searches
 * what is typed), Escape closes the list. The frame's `/` focuses it by its id.
 */
export function SearchBox({ value, onChange, onSubmit }: SearchBoxProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const prefix = useDebounced(normaliseTerm(value), SUGGEST_DELAY_MS);
  const suggestions = useQuery({
    ...catalogQueries.autocomplete(prefix),
    enabled: open && prefix.length > 0 && prefix.length <= 200,
  });
  const options = open && prefix ? (suggestions.data ?? []).slice(0, 8) : [];
  const expanded = options.length > 0;
  const optionId = (i: number) => `${listId}-option-${i}`;

  const choose = (text: string) => {
    onChange(text);
    setOpen(false);
    setActive(-1);
    onSubmit(text);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) setOpen(true);
      if (!options.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => wrap(i + step, options.length));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const picked = active >= 0 ? options[active] : undefined;
      if (picked !== undefined) choose(picked);
      else {
        setOpen(false);
        onSubmit(value);
      }
    } else if (e.key === 'Escape' && expanded) {
      e.preventDefault(); // closes the list, not the detail panel
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="search-box" role="search">
      <input
        id={SEARCH_INPUT_ID}
        type="text"
        role="combobox"
        aria-label="Search"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        placeholder="Search titles and people…"
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <ul id={listId} role="listbox" aria-label="Suggestions" className="search-suggestions" hidden={!expanded}>
        {options.map((text, i) => (
          // A combobox option: its keys are the search box's (arrows, Enter), through aria-activedescendant.
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events
          <li
            key={text}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'active' : undefined}
            onMouseDown={(e) => e.preventDefault()} // keep focus in the box
            onClick={() => choose(text)}
          >
            {text}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The index after an arrow step, through "none highlighted" (-1) at either end. */
function wrap(i: number, count: number): number {
  if (i >= count) return -1;
  if (i < -1) return count - 1;
  return i;
}
