import { useId, useRef, useState, type ChangeEvent } from 'react';
import type { HandedFile } from '../../queries/import.ts';

/** The largest file the app reads: its text, escaped as JSON, must fit the web host's 1 MiB request. */
export const MAX_FILE_BYTES = 800_000;

/**
 * Choosing the file: a button that opens the system's file chooser (a native file input, so it
 * works by keyboard and with screen readers), what Marquee reads, and that a file may also be
 * dropped on the window. A file too large is refused here, before anything is sent.
 */
export function FileChooser({ onFile }: { onFile: (file: HandedFile) => void }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const chosen = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const read = await readChosenFile(file);
    if (typeof read === 'string') {
      setProblem(read);
      return;
    }
    setProblem(null);
    onFile(read);
  };
  return (
    <div className="import-chooser">
      <input
        ref={input}
        id={inputId}
        type="file"
        className="import-file-input"
        accept=".csv,.txt,.xml,.atom,.json,text/csv,text/plain,application/xml,application/atom+xml,application/json"
        onChange={(e) => void chosen(e)}
      />
      <label htmlFor={inputId} className="button primary large import-file-label">
        Choose a file…
      </label>
      <p className="muted small">or drop it anywhere on this window.</p>
      {problem && (
        <p className="error-message compact" role="alert">
          {problem}
        </p>
      )}
      <h2 className="section-title">What Marquee reads</h2>
      <ul className="import-formats">
        <li>Letterboxd exports: watchlist, ratings, diary or a list (CSV)</li>
        <li>IMDb exports: a list, your watchlist or your ratings (CSV)</li>
        <li>A plain text list: one title a line, the year in brackets if you know it — “Alien (1979)”</li>
        <li>A queue from this service: its XML or its Atom feed, or a Marquee export (JSON)</li>
      </ul>
      <p className="muted small">
        Marquee tells the kind of list from what is in the file. Nothing changes until you have reviewed the matches and
        confirmed.
      </p>
    </div>
  );
}

/** A chosen or dropped file's text, or why it cannot be read (in words). */
export async function readChosenFile(file: File): Promise<HandedFile | string> {
  if (file.size > MAX_FILE_BYTES)
    return `“${file.name}” is too large to import (over 800 KB). Export a shorter list, or split it.`;
  try {
    return { name: file.name, text: await file.text() };
  } catch {
    return `“${file.name}” could not be read. Check that the file is still there and try again.`;
  }
}
