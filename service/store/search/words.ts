/** Splits a user's term into lower-case words of letters and digits (drops operators and quotes). */
export function searchWords(term: string): string[] {
  return titleWords(term).slice(0, 8);
}

const PLAIN_ASCII = /^\p{ASCII}*$/u;

/**
 * Every word of a title, repeats included, as the full-text index (FTS5 `unicode61
 * remove_diacritics 2`) tokenizes it: lower case, diacritics dropped, split at anything that is
 * not a letter or a digit. ASCII text (most titles) takes the short way, with the same result.
 */
export function titleWords(text: string): string[] {
  if (PLAIN_ASCII.test(text))
    return text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 0);
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}
