import type { ImportCandidate, ImportEntry, ImportMatch } from '../../../shared/import-export.ts';
import { titleKey } from '../../../shared/protocol/title-key.ts';

/**
 * Which catalog title an entry of a list means, from the candidates the catalog offered for its
 * name. Certain ("matched") only when nothing rivals it: the same ref on this service; or the same
 * name (titleKey: case, accents, punctuation, articles, "&") and the same year, or a year one off,
 * with no other title of that name as close; or, when the file gives no year, the only title of
 * that name. Several titles of the name, a year further off, a type that disagrees or only a
 * similar name make it a choice; nothing close is "missing". A wrong silent match is worse than
 * a miss, so every doubt goes to the person.
 */

/** Candidates a row offers to choose from. */
const SHOWN = 5;
/** A similar (not equal) name is offered only within this many years of the file's. */
const SIMILAR_YEARS = 2;

export function decide(entry: ImportEntry, candidates: readonly ImportCandidate[]): ImportMatch {
  if (entry.ref !== null) {
    const same = candidates.find((c) => c.ref === entry.ref);
    if (same) return matched(same, candidates, 'The same title on this service');
  }
  const byName = decideByName(entry, candidates);
  // A list line "Death Race 2000" is read as a name and a year; the year may be part of the name.
  const whole = entry.year === null ? '' : titleKey(`${entry.title} ${entry.year}`);
  const wholeNamed = whole === '' ? [] : candidates.filter((c) => titleKey(c.title) === whole);
  if (wholeNamed.length === 0) return byName;
  const offered = [...wholeNamed, ...byName.candidates.filter((c) => !wholeNamed.includes(c))];
  if (byName.status === 'matched' || wholeNamed.length > 1)
    return choice(offered, `Read as “${entry.title}” (${entry.year}), or a title with the year in its name`);
  return matched(wholeNamed[0]!, offered, 'Same title: the year is part of its name');
}

function decideByName(entry: ImportEntry, candidates: readonly ImportCandidate[]): ImportMatch {
  const key = titleKey(entry.title);
  const named = byYear(
    candidates.filter((c) => titleKey(c.title) === key || titleKey(c.shortTitle) === key),
    entry.year,
  );
  const fits = (c: ImportCandidate) => entry.type === null || c.type === entry.type;
  const similar = byYear(
    candidates.filter((c) => !named.includes(c) && isSimilar(key, c, entry.year)),
    entry.year,
  );
  const offered = [...named, ...similar];

  if (named.length === 0) {
    return similar.length > 0
      ? choice(offered, similar.length === 1 ? 'A similar title' : `${similar.length} similar titles`)
      : missing();
  }
  if (entry.year === null) {
    if (named.length === 1 && fits(named[0]!))
      return matched(named[0]!, offered, 'Same title (the file gives no year)');
    return choice(
      offered,
      named.length > 1 ? `${named.length} titles share this name` : `A ${named[0]!.type} of this name`,
    );
  }
  const distance = (c: ImportCandidate) => (c.year === null ? Infinity : Math.abs(c.year - entry.year!));
  const closest = Math.min(...named.map(distance));
  const atClosest = named.filter((c) => distance(c) === closest);
  const undated = named.some((c) => c.year === null);
  if (closest <= 1 && atClosest.length === 1 && !undated && fits(atClosest[0]!)) {
    return matched(
      atClosest[0]!,
      offered,
      closest === 0 ? 'Same title and year' : `Same title; the catalog says ${atClosest[0]!.year}`,
    );
  }
  if (closest <= 1 && atClosest.length > 1)
    return choice(offered, `${atClosest.length} titles share this name and year`);
  if (closest <= 1) return choice(offered, `A ${atClosest[0]!.type} of this name`);
  return choice(
    offered,
    named.length === 1
      ? `Same title, but from ${named[0]!.year ?? 'an unknown year'}`
      : `${named.length} titles of this name, none from ${entry.year}`,
  );
}

/** Equal names first, nearest year first (stable otherwise). */
function byYear(list: ImportCandidate[], year: number | null): ImportCandidate[] {
  if (year === null) return list;
  const d = (c: ImportCandidate) => (c.year === null ? Infinity : Math.abs(c.year - year));
  return [...list].sort((a, b) => d(a) - d(b));
}

/**
 * A name close enough to offer: one name is the other with a subtitle ("Léon" and "Léon: The
 * Professional"), or they share most of their words; and the years, when both are known, are near.
 */
function isSimilar(key: string, c: ImportCandidate, year: number | null): boolean {
  if (year !== null && c.year !== null && Math.abs(c.year - year) > SIMILAR_YEARS) return false;
  const other = titleKey(c.title);
  if (key === '' || other === '') return false;
  if (other.startsWith(`${key} `) || key.startsWith(`${other} `)) return true;
  const a = new Set(key.split(' '));
  const b = new Set(other.split(' '));
  const shared = [...a].filter((w) => b.has(w)).length;
  return shared / new Set([...a, ...b]).size >= 0.6;
}

function matched(title: ImportCandidate, others: readonly ImportCandidate[], reason: string): ImportMatch {
  return {
    status: 'matched',
    ref: title.ref,
    candidates: [title, ...others.filter((c) => c.ref !== title.ref)].slice(0, SHOWN),
    reason,
  };
}

function choice(candidates: ImportCandidate[], reason: string): ImportMatch {
  return { status: 'choice', ref: null, candidates: candidates.slice(0, SHOWN), reason };
}

function missing(): ImportMatch {
  return { status: 'missing', ref: null, candidates: [], reason: 'Not in the catalog' };
}
