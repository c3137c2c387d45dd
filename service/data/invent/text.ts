/** Synthetic synopses and biographies built from templates (real directors get facts only). */
import { personPath, type Genre } from '../../../shared/protocol/index.ts';
import type { Rng } from '../rng.ts';

export interface PersonRef {
  id: number;
  name: string;
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A person link; the service rewrites the path into an absolute URL. */
export function personLink(p: PersonRef): string {
  return `<a href="${personPath(p.id)}">${escapeHtml(p.name)}</a>`;
}

const PROTAGONISTS = [
  'a retired lighthouse keeper',
  'an estranged sister',
  'a young cartographer',
  'a small-town sheriff',
  'an ambitious sous-chef',
  'a disgraced chess prodigy',
  'a night-shift nurse',
  'a travelling piano tuner',
  'an out-of-work stunt double',
  'a reluctant heir',
  'a widowed beekeeper',
  'a rookie reporter',
  'a homesick exchange student',
  'a ferry captain',
  'a shy museum guard',
  'a former getaway driver',
] as const;

const SETTINGS = [
  'in a fog-bound harbour town',
  'on the eve of a long-awaited wedding',
  'over one sweltering city summer',
  'in the last days of a failing circus',
  'on a remote research station',
  'during a record-breaking snowstorm',
  'in a crumbling seaside hotel',
  'along a thousand miles of empty highway',
  'in a village that time forgot',
  'inside a city that never sleeps',
] as const;

const PREMISES: Record<Genre, readonly string[]> = {
  'Action & Adventure': [
    'must outrun a ruthless syndicate to recover a stolen map',
    'is drawn into a daring rescue far beyond the edge of any chart',
  ],
  Animation: [
    'sets out with an unlikely band of friends to bring the colour back to the world',
    'discovers a door that opens onto a painted kingdom',
  ],
  'Children & Family': [
    'finds out that the new family dog understands every word',
    'has one week to save the neighbourhood fair',
  ],
  Comedy: [
    'tells one small lie that snowballs into a week of glorious chaos',
    'is mistaken for a famous guest and decides to play along',
  ],
  Documentary: [
    'is followed by a patient camera through a year of triumphs and setbacks',
    'opens an archive of letters that changes a family story',
  ],
  Drama: ['must choose between loyalty to family and a chance at a new life', 'returns home to settle an old debt'],
  Horror: [
    'realises that the house remembers everyone who has ever lived in it',
    'hears a knocking that no one else can hear',
  ],
  Independent: [
    'drifts through a week of odd jobs and unexpected encounters',
    'makes a small decision that quietly changes everything',
  ],
  'Music & Musicals': ['chases one last shot at the big stage', 'puts a band back together for a single night'],
  Romance: [
    'keeps running into the same stranger until chance starts to look like fate',
    'writes letters to someone they have never met',
  ],
  'Sci-Fi & Fantasy': [
    'receives a message sent from thirty years in the future',
    'wakes up with a gift nobody can explain',
  ],
  Thrillers: ['witnesses something that was never meant to be seen', 'is given forty-eight hours to clear a name'],
  Westerns: [
    'rides into a lawless town that wants nothing to do with strangers',
    'drives a herd across a territory on the brink of war',
  ],
  Television: ['navigates the everyday dramas of a tight-knit workplace', 'investigates a new mystery every week'],
};

const GENRE_NOUNS: Record<Genre, string> = {
  'Action & Adventure': 'adventure',
  Animation: 'animated feature',
  'Children & Family': 'family film',
  Comedy: 'comedy',
  Documentary: 'documentary',
  Drama: 'drama',
  Horror: 'horror film',
  Independent: 'independent film',
  'Music & Musicals': 'musical',
  Romance: 'romance',
  'Sci-Fi & Fantasy': 'fantasy',
  Thrillers: 'thriller',
  Westerns: 'western',
  Television: 'series',
};

const CLOSERS = [
  'A story about second chances.',
  'Nothing goes according to plan.',
  'Some secrets refuse to stay buried.',
  'Home is never quite where it was left.',
  'Every choice comes with a price.',
] as const;

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function joinLinks(people: readonly PersonRef[]): string {
  const links = people.map(personLink);
  if (links.length <= 1) return links.join('');
  return `${links.slice(0, -1).join(', ')} and ${links[links.length - 1]}`;
}

export interface SynopsisInput {
  year: number | null;
  genres: readonly Genre[];
  directors: readonly PersonRef[];
  cast: readonly PersonRef[];
  /** 'series' describes a show; 'episode' a single instalment */
  kind?: 'film' | 'series' | 'episode';
}

/** 2–4 sentences of HTML (person links) and a one-sentence plain short synopsis. */
export function synopsis(rng: Rng, input: SynopsisInput): { synopsis: string; short: string } {
  const genre = input.genres.find((g) => g !== 'Television') ?? input.genres[0] ?? 'Drama';
  const premise = rng.pick(PREMISES[genre]);
  const lead = `${capitalise(rng.pick(PROTAGONISTS))} ${premise} ${rng.pick(SETTINGS)}.`;
  const sentences = [lead];
  const noun =
    input.kind === 'series'
      ? `${GENRE_NOUNS[genre]} series`
      : input.kind === 'episode'
        ? 'episode'
        : GENRE_NOUNS[genre];
  const when = input.year !== null ? `${input.year} ` : '';
  const article = /^[aeiou]/.test(noun) && when === '' ? 'an' : 'a';
  if (input.directors.length > 0)
    sentences.push(`Directed by ${joinLinks(input.directors)}, this ${when}${noun} keeps its surprises close.`);
  else sentences.push(capitalise(`${article} ${when}${noun} told with warmth and nerve.`));
  const stars = input.cast.slice(0, 3);
  if (stars.length > 0) sentences.push(`${joinLinks(stars)} ${stars.length === 1 ? 'stars' : 'star'}.`);
  if (rng.chance(0.5)) sentences.push(rng.pick(CLOSERS));
  return { synopsis: sentences.join(' '), short: lead };
}

/** A real director's bio: only what this catalog's data says (count and some titles with years). */
export function realDirectorBio(films: readonly { title: string; year: number | null }[]): string {
  const n = films.length;
  const named = films.slice(0, 3).map((f) => (f.year !== null ? `${f.title} (${f.year})` : f.title));
  if (n === 1) return `Director of 1 title in this catalog: ${named[0]}.`;
  const list =
    named.length === 2 ? named.join(' and ') : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
  return `Director of ${n} titles in this catalog, including ${list}.`;
}

const BIRTHPLACES = [
  'Lisbon',
  'Glasgow',
  'Duluth',
  'Trieste',
  'Halifax',
  'Ballarat',
  'Bergen',
  'Savannah',
  'Ghent',
  'Valparaíso',
] as const;
const TRAINING = [
  'trained at the Ashcombe Academy of Dramatic Arts',
  'started out in regional repertory theatre',
  'spent a decade in sketch comedy',
  'came to acting from modern dance',
  'began as a radio announcer',
  'studied architecture before switching to film',
] as const;
const CAREERS = [
  'is known for quiet, precise character work',
  'has become a familiar face in ensemble casts',
  'moves easily between comedy and drama',
  'is a favourite of independent filmmakers',
  'is admired for fearless physical performances',
  'divides time between stage and screen',
] as const;

const DIRECTOR_STARTS = [
  'began by directing music videos',
  'cut their teeth on documentary shorts',
  'started out as a script supervisor',
  'worked as a camera operator for a decade',
  'came to directing from the theatre',
] as const;

export interface BioCredits {
  count: number;
  example?: { title: string; year: number | null } | undefined;
}

/** A generated bio for an invented person (a fictional performer, or a director of episodes). */
export function inventedBio(
  rng: Rng,
  name: string,
  credits?: BioCredits,
  role: 'performer' | 'director' = 'performer',
): string {
  const start = role === 'director' ? rng.pick(DIRECTOR_STARTS) : rng.pick(TRAINING);
  const parts = [`${name} was born in ${rng.pick(BIRTHPLACES)} and ${start}.`];
  if (role === 'performer') parts.push(`${capitalise(rng.pick(CAREERS))}.`);
  if (credits && credits.count > 0 && credits.example) {
    const ex =
      credits.example.year !== null ? `${credits.example.title} (${credits.example.year})` : credits.example.title;
    const [verb, noun] = role === 'director' ? ['Has directed episodes of', 'series'] : ['Appears in', 'titles'];
    parts.push(credits.count === 1 ? `${verb} ${ex}.` : `${verb} ${credits.count} ${noun}, among them ${ex}.`);
  }
  return parts.join(' ');
}

/**
 * A short title: the title itself when short, else cut at a word and marked "…". Never just the
 * part before a colon: "Star Wars: Episode IV …" and "… VI …" must not both become "Star Wars".
 */
export function shortTitle(title: string, max = 40): string {
  if (title.length <= max) return title;
  const cut = title.lastIndexOf(' ', max - 1);
  const head = title.slice(0, cut > 10 ? cut : max - 1).replace(/[\s:,;–-]+$/, '');
  return `${head}…`;
}
