import '../styles/segmented.css';
import { useRef, type KeyboardEvent } from 'react';

export interface Segment<V extends string> {
  value: V;
  label: string;
}

/** The group's accessible name: its own words, or the id of a visible label beside it. */
type GroupName = { label: string; labelledBy?: never } | { labelledBy: string; label?: never };

type SegmentedControlProps<V extends string> = GroupName & {
  segments: readonly Segment<V>[];
  value: NoInfer<V>;
  onChange: (value: NoInfer<V>) => void;
};

/** Where an arrow, Home or End moves within `count` segments from `index` (arrows wrap, as in a radio group). */
export function segmentAfterKey(key: string, index: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (index + 1) % count;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * One choice out of a few, side by side (a type filter, a view, a theme, a sort order), as WAI-ARIA's
 * radio group: one Tab stop on the chosen segment; arrows (wrapping), Home and End move and choose.
 */
export function SegmentedControl<V extends string>({
  label,
  labelledBy,
  segments,
  value,
  onChange,
}: SegmentedControlProps<V>) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const chosen = Math.max(
    0,
    segments.findIndex((s) => s.value === value),
  );

  // Choosing the segment already chosen changes nothing (no needless preference write).
  function choose(next: V) {
    if (next !== value) onChange(next);
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const next = segmentAfterKey(event.key, index, segments.length);
    if (next === null) return;
    event.preventDefault();
    buttons.current[next]?.focus();
    choose(segments[next]!.value);
  }

  return (
    <div className="segmented" role="radiogroup" aria-label={label} aria-labelledby={labelledBy}>
      {segments.map((segment, index) => (
        <button
          key={segment.value}
          ref={(button) => {
            buttons.current[index] = button;
          }}
          type="button"
          role="radio"
          className="segment"
          aria-checked={segment.value === value}
          tabIndex={index === chosen ? 0 : -1}
          onClick={() => choose(segment.value)}
          onKeyDown={(event) => onKeyDown(event, index)}
        >
          {segment.label}
        </button>
      ))}
    </div>
  );
}
