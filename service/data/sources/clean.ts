/** Repairs for the known faults in the two source film lists (used only by the seed builder). */

/** Mac Roman 0x80–0xFF; vega's accented titles are Latin-1 bytes that were decoded as Mac Roman. */
const MAC_ROMAN_HIGH =
  'ÄÅÇÉÑÖÜáàâäãåçéèêëíìîïñóòôöõúùûü†°¢£§•¶ß®©™´¨≠ÆØ∞±≤≥¥µ∂∑∏π∫ªºΩæø' +
  '¿¡¬√ƒ≈∆«»…\u00a0ÀÃÕŒœ–—“”‘’÷◊ÿŸ⁄€‹›ﬁﬂ‡·‚„‰ÂÊÁËÈÍÎÏÌÓÔ\uf8ffÒÚÛÙıˆ˜¯˘˙˚¸˝˛ˇ';

/** Windows-1252 0x80–0x9F (the rest of the byte range is Latin-1 itself). */
const CP1252_LOW = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/** Characters that only ever appear in these sources as mojibake, never as themselves. */
const MOJIBAKE_MARKERS = /[ÈÍËÎ‡ÙÛ·‰˘ΩÖ]/;

/** Re-decodes a Mac-Roman-misread Latin-1 string ("LÈon" → "Léon"); vega values only. */
export function fixMojibake(s: string): string {
  if (!MOJIBAKE_MARKERS.test(s)) return s;
  let out = '';
  for (const ch of s) {
    const i = MAC_ROMAN_HIGH.indexOf(ch);
    if (ch.charCodeAt(0) < 0x80 || i < 0) {
      out += ch;
      continue;
    }
    const byte = 0x80 + i;
    out += byte < 0xa0 ? CP1252_LOW[byte - 0x80] : String.fromCharCode(byte);
  }
  return out;
}

/** The vega list was compiled around 2010; later years are two-digit-year parses (1946 → 2046). */
const VEGA_LAST_PLAUSIBLE_YEAR = 2012;

export function fixCentury(year: number): number {
  return year > VEGA_LAST_PLAUSIBLE_YEAR ? year - 100 : year;
}

/** Parses vega's "Jun 12 1998" release dates; null when unparseable. */
export function vegaYear(date: unknown): number | null {
  if (typeof date !== 'string') return null;
  const m = /(\d{4})\s*$/.exec(date);
  return m ? fixCentury(Number(m[1])) : null;
}

/** Trailing parentheticals that name an edition or a disambiguating year, not part of the title. */
const EDITION_SUFFIX = /\s*\((?:\d{4}|IMAX|[^)]*\bRelease)\)\s*$/i;

/** One film under two names across the lists (original vs English title, abbreviations); value kept. */
const SAME_FILM: Record<string, string> = {
  "Le Fabuleux destin d'Amélie Poulain": 'Amélie',
  'La mala educación': 'Bad Education',
  'Animal House': "National Lampoon's Animal House",
  'Le Scaphandre et le Papillon': 'The Diving Bell and the Butterfly',
  'El Laberinto del Fauno': "Pan's Labyrinth",
  'Mulholland Dr.': 'Mulholland Drive',
  'Central do Brasil': 'Central Station',
  'The Curse of the Were-Rabbit': 'Wallace & Gromit: The Curse of the Were-Rabbit',
  MASH: 'M*A*S*H',
  'X-Men 2': 'X2',
};

/**
 * A display title from a raw source value: numbers become text (1776, 2012), whitespace collapses,
 * "Barbarians, The" becomes "The Barbarians", edition suffixes go. Null/empty → null (dropped).
 */
export function cleanTitle(raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  let t = String(raw).replace(/\s+/g, ' ').trim();
  t = t.replace(EDITION_SUFFIX, '');
  const inverted = /^(.*), (The|A|An)$/.exec(t);
  if (inverted) t = `${inverted[2]} ${inverted[1]}`;
  t = t.replace(/^Star Wars Ep\. ([IVX]+): /, 'Star Wars: Episode $1 - ');
  t = SAME_FILM[t] ?? t;
  return t.length > 0 ? t : null;
}

/** Accent-, case- and punctuation-insensitive key: "Léon" ≡ "Leon", "&" ≡ "and", "Vol." ≡ "Volume", articles ignored. */
export function titleKey(title: string): string {
  return fold(title)
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\bvol\b/g, 'volume')
    .replace(/\b(the|a|an)\b/g, ' ')
    .replace(/\s+/g, '');
}

function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

/** The same real director spelled differently across the sources; value is the form we keep. */
const DIRECTOR_ALIASES: Record<string, string> = {
  'Francis Coppola': 'Francis Ford Coppola',
  'Jack Lee Thompson': 'J. Lee Thompson',
  'Alejandro G. Iñárritu': 'Alejandro González Iñárritu',
  'Alejandro Gonzalez Inarritu': 'Alejandro González Iñárritu',
  'S.M. Eisenstein': 'Sergei Eisenstein',
  'Charles Chaplin': 'Charlie Chaplin',
  'Carl Th. Dreyer': 'Carl Theodor Dreyer',
  'H.G. Clouzot': 'Henri-Georges Clouzot',
  'Donald Siegel': 'Don Siegel',
  'Kenneth Loach': 'Ken Loach',
  'Gareth Huw Evans': 'Gareth Evans',
  'Sir Richard Attenborough': 'Richard Attenborough',
  'Gus Van Sant Jr.': 'Gus Van Sant',
  'Cecil B. de Mille': 'Cecil B. DeMille',
  'Jan De Bont': 'Jan de Bont',
  'Guillermo Del Toro': 'Guillermo del Toro',
  'Kevin MacDonald': 'Kevin Macdonald',
  // The sources predate the directors' current names; credit them as they are known now.
  'Andy Wachowski': 'Lilly Wachowski',
  'Larry Wachowski': 'Lana Wachowski',
  'The Wachowski Brothers': 'The Wachowskis',
};

/** Key under which two spellings of one person's name meet (accents and punctuation ignored). */
export function personKey(name: string): string {
  return fold(name).replace(/[^a-z0-9]+/g, '');
}

/** A director's display name: trimmed, alias-resolved; null for empty values. */
export function cleanDirector(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const n = raw.replace(/\s+/g, ' ').trim();
  if (n === '') return null;
  return DIRECTOR_ALIASES[n] ?? n;
}

/** Picks, among spellings of one name, the one with the most accents (the sources drop them). */
export function preferredSpelling(a: string, b: string): string {
  const marks = (s: string) => s.normalize('NFD').length - s.length;
  if (marks(b) !== marks(a)) return marks(b) > marks(a) ? b : a;
  return a <= b ? a : b;
}
