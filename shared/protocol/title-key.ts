/**
 * A film's name as lists write it and as the catalog holds it, reduced to what identifies it: the
 * title-match extension (POST /catalog/titles/match) orders by it and the app's importer decides by
 * it. Case, accents, punctuation, apostrophes, "&" for "and" and a leading English article are set
 * aside; an article written after a comma ("Godfather, The", "Samouraï, Le") is put back in front.
 */

/** Articles a list may move to the end ("Godfather, The"); English ones are then dropped by the key. */
const MOVED_ARTICLE = /^(.+?),\s*(the|a|an|le|la|les|l'|el|los|las|il|lo|gli|der|die|das)\s*$/i;
const LEADING_ENGLISH_ARTICLE = /^(the|a|an) (?=\S)/;

/** "Godfather, The" → "The Godfather"; anything else unchanged (trimmed). */
export function articleInFront(name: string): string {
  const trimmed = name.trim();
  const m = MOVED_ARTICLE.exec(trimmed);
  if (!m) return trimmed;
  const article = m[2]!;
  return `${article}${article.endsWith("'") ? '' : ' '}${m[1]!.trim()}`;
}

/** Lower-case words of letters and digits, accents removed, "&" as "and", apostrophes joined ("pandoras box"). */
export function plainWords(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/['’‘`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The identifying key of a title's name: "The Godfather", "godfather, the" and "GODFATHER" share one. */
export function titleKey(name: string): string {
  return plainWords(articleInFront(name)).replace(LEADING_ENGLISH_ARTICLE, '');
}

/**
 * The words to search the catalog with for a name (at most 8, as the search takes): split where
 * the catalog's index splits (apostrophes included), without "and" (the catalog may write "&",
 * which is not a word) and without a leading English article. Empty when none are left.
 */
export function searchTermOf(name: string): string {
  const words = plainWords(articleInFront(name).replace(/['’‘`´]/g, ' '))
    .replace(LEADING_ENGLISH_ARTICLE, '')
    .split(' ')
    .filter((w) => w !== '' && w !== 'and');
  return words.slice(0, 8).join(' ');
}

/** Letters of each word a loose search keeps. */
const LOOSE_PREFIX = 3;

/**
 * A looser search for a name the catalog's search missed, as lists write names without their
 * apostrophe ("Dont Look Now", "McHales Navy"): each word cut to its first three letters, so it
 * still starts the catalog's word ("don" of "Don't"). Null when it would be the same search.
 */
export function looseSearchTermOf(name: string): string | null {
  const term = searchTermOf(name);
  const loose = term
    .split(' ')
    .map((w) => w.slice(0, LOOSE_PREFIX))
    .join(' ');
  return loose === term ? null : loose;
}
