import { useState, type FormEvent, type KeyboardEvent } from 'react';

/**
 * The row's position: a button showing the number; activating it turns it into a number field
 * where typing a position and pressing Enter moves the title there (Escape leaves it).
 */
export function PositionField({ name, position, total, onMove }: { name: string; position: number; total: number; onMove: (position: number) => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(String(position));

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
          setText(String(position));
          setEditing(true);
        }}
      >
        {position}
      </button>
    );
  }
  return (
    <form className="queue-position-form" onSubmit={submit} onClick={(e) => e.stopPropagation()}>
      <input
        className="queue-position-input"
        type="number"
        min={1}
        max={total}
        value={text}
        aria-label={`New position for “${name}” (1 to ${total})`}
        autoFocus
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => setEditing(false)}
      />
    </form>
  );
}
