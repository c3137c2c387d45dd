/** Word pools for invented people, series and episodes; unusual surnames keep real-name clashes rare. */
import { mix } from '../rng.ts';

export const FIRST_NAMES = [
  'Ada', 'Alden', 'Amara', 'Anselm', 'Aurelia', 'Bastian', 'Beatrix', 'Bram', 'Calla', 'Caspian',
  'Celeste', 'Corin', 'Dalia', 'Dashiell', 'Delphine', 'Desmond', 'Elodie', 'Emrys', 'Esme', 'Evander',
  'Fenna', 'Florian', 'Freya', 'Gideon', 'Greer', 'Hale', 'Hollis', 'Ines', 'Isolde', 'Ivo',
  'Jora', 'Jules', 'Juniper', 'Kasimir', 'Keziah', 'Lark', 'Leopold', 'Linnea', 'Lucan', 'Mabel',
  'Marlo', 'Maxence', 'Mireille', 'Nell', 'Nico', 'Noor', 'Odile', 'Orson', 'Ottilie', 'Pax',
  'Perpetua', 'Quill', 'Rafferty', 'Rosalind', 'Rune', 'Saoirse', 'Silas', 'Solveig', 'Tamsin', 'Teodor',
  'Thea', 'Tobiah', 'Una', 'Valentin', 'Vesna', 'Wilhelmina', 'Wren', 'Xavi', 'Yara', 'Zeno',
  'Agathe', 'Benedikt', 'Clementine', 'Dorian', 'Estelle', 'Fitz', 'Ginevra', 'Hugo', 'Ilse', 'Jasper',
  'Kit', 'Lorcan', 'Margit', 'Nestor', 'Oona', 'Piers', 'Romilly', 'Sabine', 'Tiberius', 'Ulla',
  'Viggo', 'Winslow', 'Yves', 'Zinnia', 'Ambrose', 'Briony', 'Cosima', 'Ezra', 'Hester', 'Lazlo',
] as const;

export const LAST_NAMES = [
  'Ashcombe', 'Bellweather', 'Blackthorn', 'Brackenridge', 'Brightwater', 'Caldecott', 'Carrowmore', 'Clerkenwell',
  'Coldharbour', 'Cresswell', 'Dunmore', 'Eastlake', 'Elderfield', 'Fairbairn', 'Fenwick', 'Foxglove',
  'Galloway', 'Glasspool', 'Greengage', 'Hallorann', 'Harrowgate', 'Hawthorne', 'Hollowell', 'Inchbald',
  'Ivorydale', 'Kettleby', 'Kingsmere', 'Lachance', 'Larkspur', 'Lindqvist', 'Lockhart', 'Marchbanks',
  'Merriweather', 'Mossgrove', 'Nettlefold', 'Northcott', 'Oakenshaw', 'Ormsby', 'Pellegrin', 'Penhallow',
  'Quartermain', 'Quince', 'Ravenscroft', 'Redfern', 'Rookwood', 'Saltonstall', 'Silverbirch', 'Sorrell',
  'Stonebridge', 'Swiftwater', 'Tallboys', 'Thistlewood', 'Thornbury', 'Underhill', 'Vantongeren', 'Varga-Lind',
  'Wainwright', 'Westerberg', 'Whitlock', 'Willowby', 'Winterbourne', 'Yarborough', 'Zabrinski', 'Amberley',
  'Applethwaite', 'Birchall', 'Bramblecombe', 'Castellane', 'Copperfield', 'Dovecote', 'Everleigh', 'Featherstone',
  'Gildersleeve', 'Goldhawk', 'Heathcote', 'Honeywell', 'Juniperson', 'Kestrelton', 'Lambourne', 'Mallowan',
  'Moorcroft', 'Nightingale-Rhys', 'Oldacre', 'Pemberton-Vasquez', 'Quillfeather', 'Rainsford', 'Rushworth', 'Sandoval-Price',
  'Shadwell', 'Starling', 'Tenterden', 'Umbergate', 'Vellacott', 'Wolstenholme', 'Yelverton', 'Zoutendijk',
  'Achterberg', 'Bellamy-Okafor', 'Cormorant', 'Delacroix-Hale', 'Esterhazy-Blum', 'Fallowfield', 'Greystoke-Ng', 'Hazelrigg',
] as const;

const INITIALS = 'ABCDEFGHJKLMNPRSTVW';

/** The nth invented name: distinct for every n below ~20 million (first × initial × last × last). */
export function inventedName(n: number): string {
  const f = n % FIRST_NAMES.length;
  const q = Math.floor(n / FIRST_NAMES.length);
  // 31 is coprime to the pool size, so each first name meets every surname once per block.
  const last = LAST_NAMES[(q * 31 + f) % LAST_NAMES.length] as string;
  const first = FIRST_NAMES[f] as string;
  const block = Math.floor(q / LAST_NAMES.length);
  if (block === 0) return `${first} ${last}`;
  const initial = INITIALS[(block - 1) % INITIALS.length] as string;
  const round = Math.floor((block - 1) / INITIALS.length);
  const extra = round === 0 ? '' : `${LAST_NAMES[(round - 1) % LAST_NAMES.length] as string} `;
  return `${first} ${initial}. ${extra}${last}`;
}

export const SERIES_ADJECTIVES = [
  'Harbor', 'Midnight', 'Silver', 'Hidden', 'Northern', 'Broken', 'Golden', 'Quiet', 'Restless', 'Crimson',
  'Distant', 'Wild', 'Hollow', 'Burning', 'Frozen', 'Salt', 'Iron', 'Paper', 'Velvet', 'Copper',
] as const;

export const SERIES_NOUNS = [
  'Lights', 'County', 'Station', 'Street', 'Files', 'Heights', 'Diaries', 'Bay', 'Frontier', 'Academy',
  'Ward', 'Circuit', 'Crossing', 'Precinct', 'Kitchen', 'Valley', 'Manor', 'Signal', 'Harvest', 'Orbit',
] as const;

const EPISODE_HEADS = [
  'The Long', 'A Quiet', 'The Last', 'One More', 'The First', 'Another', 'The Wrong', 'A Perfect', 'The Lost',
  'A Borrowed', 'The Other', 'Every', 'The Secret', 'No Ordinary', 'The Stolen', 'A Narrow',
] as const;
const EPISODE_TAILS = [
  'Night', 'Goodbye', 'Winter', 'Favour', 'Harvest', 'Letter', 'Storm', 'Wedding', 'Crossing', 'Alibi',
  'Promise', 'Shift', 'Summer', 'Reunion', 'Inheritance', 'Confession', 'Detour', 'Deadline', 'Key', 'Visitor',
] as const;

/** An episode name; distinct within a season for episode numbers below 16. */
export function episodeName(seed: number, episode: number): string {
  const head = EPISODE_HEADS[(seed + episode) % EPISODE_HEADS.length] as string;
  const tail = EPISODE_TAILS[(mix(seed, episode) >>> 3) % EPISODE_TAILS.length] as string;
  return episode === 1 && seed % 3 === 0 ? 'Pilot' : `${head} ${tail}`;
}

const FILM_WORDS_A = [
  'Shadow', 'River', 'Glass', 'Summer', 'Stone', 'Ember', 'Echo', 'Harbor', 'Winter', 'Lantern',
  'Falcon', 'Orchard', 'Signal', 'Tide', 'Ivory', 'Cinder', 'Meridian', 'Thunder', 'Paper', 'Velvet',
] as const;
const FILM_WORDS_B = [
  'Road', 'Garden', 'Kingdom', 'Promise', 'Line', 'House', 'Song', 'Hours', 'Season', 'Affair',
  'Protocol', 'Horizon', 'Letters', 'Machine', 'Empire', 'Waltz', 'Harvest', 'Gambit', 'Sky', 'Island',
] as const;
const FILM_FORMS = [
  (a: string, b: string) => `The ${a} ${b}`,
  (a: string, b: string) => `${a} ${b}`,
  (a: string, b: string) => `${b} of the ${a}`,
  (a: string, b: string) => `Beyond the ${a} ${b}`,
  (a: string, b: string) => `${a} and ${b}`,
  (a: string, b: string) => `A ${a} ${b}`,
] as const;

const FILM_COMBOS = FILM_WORDS_A.length * FILM_WORDS_B.length * FILM_FORMS.length;

/** An invented film title for the nth synthetic film; past every combination a sequel number follows. */
export function inventedFilmTitle(n: number): string {
  const m = (n * 1237) % FILM_COMBOS; // 1237 is coprime to the combination count: a scattered bijection
  const a = FILM_WORDS_A[m % FILM_WORDS_A.length] as string;
  const b = FILM_WORDS_B[Math.floor(m / FILM_WORDS_A.length) % FILM_WORDS_B.length] as string;
  const form = FILM_FORMS[Math.floor(m / (FILM_WORDS_A.length * FILM_WORDS_B.length))] as (a: string, b: string) => string;
  const part = Math.floor(n / FILM_COMBOS);
  return part === 0 ? form(a, b) : `${form(a, b)} ${part + 1}`;
}

export function seriesTitle(n: number): string {
  const a = SERIES_ADJECTIVES[n % SERIES_ADJECTIVES.length] as string;
  const b = SERIES_NOUNS[(n * 7 + Math.floor(n / SERIES_NOUNS.length)) % SERIES_NOUNS.length] as string;
  const round = Math.floor(n / (SERIES_ADJECTIVES.length * SERIES_NOUNS.length));
  return round === 0 ? `${a} ${b}` : `${a} ${b} ${round + 1}`;
}
