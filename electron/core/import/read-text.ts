import type { ImportEntry, ImportFile } from '../../../shared/import-export.ts';
import { entry, yearIn } from './entries.ts';

/**
 * A plain text list: one title a line, as people write them in notes: "1. Heat (1995)",
 * "2) Heat 1995", "- Alien", "Alien [1979]", "Alien 1979". Blank lines and lines starting with "#"
 * are passed over; a bullet ("-", "*", "•") and numbering ("1. ", "2) ", "3 - ") are dropped,
 * so "9 Songs" and "1917" stay titles. The year is taken in brackets, or as a bare last word
 * when a title is left before it and the year is not past next year ("Blade Runner 2049" stays whole).
 */
const BULLET = /^\s*[-*•·–]\s+/;
const NUMBERING = /^\s*\d{1,4}(?:[.)]|\s+[-–—])\s+/;
const YEAR_IN_BRACKETS = /\s*[([]\s*(\d{4})\s*[)\]]\s*$/;
const BARE_YEAR = /[\s,–—-]+(\d{4})\s*$/;

/** A bare last number is read as a year only up to this many years ahead (watchlists hold coming films). */
const YEARS_AHEAD = 1;

export function readTextList(text: string, thisYear = new Date().getUTCFullYear()): ImportFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const kept = lines
    .map((raw, i) => ({ raw: raw.replace(BULLET, '').replace(NUMBERING, ''), line: i + 1 }))
    .filter((l) => l.raw.trim() !== '' && !l.raw.trim().startsWith('#'));
  const entries: ImportEntry[] = [];
  const skipped: string[] = [];
  for (const { raw, line } of kept) {
    const { title, year } = titleAndYear(raw.trim(), thisYear + YEARS_AHEAD);
    if (!title) {
      skipped.push(`Line ${line} has a year but no title.`);
      continue;
    }
    entries.push(entry({ line, title, year }));
  }
  return { source: 'text', label: 'Plain text list', entries, skipped, kind: null, hasRatings: false, isList: true };
}

/** "Heat (1995)" and "Heat 1995" → Heat, 1995; "1917" and "Blade Runner 2049" stay whole, with no year. */
export function titleAndYear(line: string, latestYear: number): { title: string; year: number | null } {
  const bracket = YEAR_IN_BRACKETS.exec(line);
  if (bracket) return { title: line.slice(0, bracket.index).trim(), year: yearIn(bracket[1]) };
  const bare = BARE_YEAR.exec(line);
  const year = bare ? yearIn(bare[1]) : null;
  const title = bare ? line.slice(0, bare.index).trim() : '';
  if (bare && year !== null && year <= latestYear && title !== '') return { title, year };
  return { title: line, year: null };
}
