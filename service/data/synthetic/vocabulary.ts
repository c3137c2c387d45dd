/**
 * The words synthetic titles are made of, ranked from common to rare: a head of words real film
 * titles use often, then the rest of the `word-list` package's English words (~240k of 3–12
 * letters), shorter ones a little earlier. Drawn with a Zipf-like long tail, as real titles are.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { hashString } from '../rng.ts';

/** Words frequent in real film titles, most common first: the head of the ranking. */
const TITLE_HEAD = `
love night man day life last world dead time house girl story city dark death war home black
blood king lost little dream heart american big house night blue red star back summer road
great secret wild black fire river moon sun sea island boy game lady light street money
kill shadow family ghost angel devil christmas baby dance ring women school west rock high
island paradise power perfect brother sister mother father son daughter wedding party night
murder truth hunter lake forest mountain winter spring autumn storm rain snow ice stone gold
silver iron glass paper broken hidden silent final first young old new good bad beautiful
lonely sweet bitter golden deadly crazy strange mad holy wicked savage blind quiet secret
empire kingdom castle garden bridge train highway station hotel prison hospital desert ocean
world planet space future past memory promise escape return journey mission project edge
line fall rise run ride fight chase hunt game play song music dancer singer blues jazz
heaven hell saints sinners thieves soldiers strangers lovers friends enemies heroes legends
monster dragon wolf tiger horse bird eagle raven snake spider zombie vampire witch wizard
ghosts spirit soul body mind eyes hands face kiss touch heart fear hope rage fury glory honor
justice revenge danger trouble chance luck fortune destiny fate miracle wonder magic mystery
`;

/** What each synthetic title is drawn from. Build once per catalog and pass it down. */
export class TitleVocabulary {
  /** Lower-case words, most common first. */
  readonly ranked: readonly string[];

  constructor(words: readonly string[] = readWordList()) {
    const head = [...new Set(TITLE_HEAD.split(/\s+/).filter((w) => w.length > 0))];
    const inHead = new Set(head);
    const tail = words.filter((w) => w.length >= 3 && w.length <= 12 && /^[a-z]+$/.test(w) && !inHead.has(w));
    this.ranked = [...head, ...tailOrder(tail)];
  }
}

/**
 * A fixed, seed-independent order: length plus up to 6 of jitter, so short words lead without all
 * coming first. Keys and positions packed in one Float64Array: a numeric sort of 240k in ~30 ms.
 */
function tailOrder(words: readonly string[]): string[] {
  const slots = 2 ** 18;
  if (words.length > slots) throw new RangeError(`at most ${slots} words can be ranked, not ${words.length}`);
  const keys = new Float64Array(words.length);
  words.forEach((w, i) => {
    keys[i] = Math.floor((w.length + (hashString(w) / 2 ** 32) * 6) * 1e6) * slots + i;
  });
  keys.sort();
  return Array.from(keys, (k) => words[k % slots] as string);
}

/** The `word-list` package's words: found through Node's resolution, since a bundle cannot carry its text file. */
export function readWordList(): string[] {
  const entry = createRequire(import.meta.url).resolve('word-list');
  return readFileSync(join(dirname(entry), 'words.txt'), 'utf8').split('\n');
}

/** "shadow" → "Shadow". */
export function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
