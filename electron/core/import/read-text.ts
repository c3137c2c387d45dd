import type { ImportEntry, ImportFile } from '../../../shared/import-export.ts';
import { entry, yearIn } from './entries.ts';

/**
 * A plain text list: one title a line, an optional year in brackets ("Alien (1979)", "Alien
 * [1979]"). Blank lines and lines starting with "#" are passed over; bullets ("-", "*", "•") are
 * dropped, and so is numbering ("1. ", "2) ") when every line is numbered (so "9 Songs" stays).
 */
const BULLET = /^\s*[-*•·–]\s+/;
const NUMBERING = /^\s*\d{1,4}[.)]\s+/;
const YEAR_IN_BRACKETS = /\s*[([]\s*(\d{4})\s*[)\]]\s*$/;

export function readTextList(text: string): ImportFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const kept = lines
    .map((raw, i) => ({ raw: raw.replace(BULLET, ''), line: i + 1 }))
    .filter((l) => l.raw.trim() !== '' && !l.raw.trim().startsWith('#'));
  const numbered = kept.length > 0 && kept.every((l) => NUMBERING.test(l.raw));
  const entries: ImportEntry[] = [];
  const skipped: string[] = [];
  for (const { raw, line } of kept) {
    const unnumbered = numbered ? raw.replace(NUMBERING, '') : raw;
    const bracket = YEAR_IN_BRACKETS.exec(unnumbered);
    const title = (bracket ? unnumbered.slice(0, bracket.index) : unnumbered).trim();
    if (!title) {
      skipped.push(`Line ${line} has a year but no title.`);
      continue;
    }
    entries.push(entry({ line, title, year: bracket ? yearIn(bracket[1]) : null }));
  }
  return { source: 'text', label: 'Plain text list', entries, skipped, kind: null, hasRatings: false, isList: true };
}
