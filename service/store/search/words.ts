/** Splits a user's term into lower-case words of letters and digits (drops operators and quotes). */
export function searchWords(term: string): string[] {
  return term
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 8);
}
