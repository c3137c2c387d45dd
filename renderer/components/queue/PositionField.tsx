import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';

/**
 * The row's position: a button showing the number; activating it turns it into a number field
 * where typing a position and pressing Enter moves the title there (Escape leaves it).
 */
export function PositionField({
  name,
  position,
  total,
  onMove,
}: {
  name: string;
  position: number;
  total: number;
  onMove: (position: number) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(String(position));
  const input = useRef<HTMLInputElement>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const wanted = Math.round(Number(text));
    setEditing(false);
    if (Number.isFinite(wanted) && wanted >= 1 && wanted !== position) onMove(Math.min(wanted, total));
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    event.stopPropagation();
    if (event.key === 'Escape') setEditing(false);
  }

  if (!editing) {
    return (
      <button
        type="button"
        className="queue-position"
        aria-label={`Position ${position} of ${total}: type a new position for “${name}”`}
        onClick={(e) => {
          e.stopPropagation();
          flushSync(() => {
            setText(String(position));
            setEditing(true);
          });
          input.current?.focus(); // the field the user asked for takes the focus from its button
        }}
      >
        {position}
      </button>
    );
  }
  return (
    // Keeps a click in the field from reaching the row, which would select it; the input is the control.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <form className="queue-position-form" onSubmit={submit} onClick={(e) => e.stopPropagation()}>
      <input
        ref={input}
        className="queue-position-input"
        type="number"
        min={1}
        max={total}
        value={text}
        aria-label={`New position for “${name}” (1 to ${total})`}
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => setEditing(false)}
      />
    </form>
  );
}
