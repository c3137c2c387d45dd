/** Synthetic film and series titles: a few real title shapes filled with words drawn with a long tail. */
import { rngFor, type Rng } from '../rng.ts';
import { capitalised, TitleVocabulary } from './vocabulary.ts';
import { ZipfDraw } from './zipf.ts';

/**
 * The long tail's shape, 1/(r + 5)^1.15: the commonest word in ~3% of draws (~5% of titles), while
 * 100k titles still carry ~30k distinct words and 1M ~125k (the test and BENCHMARKS.md count them).
 */
export const TITLE_WORDS = { exponent: 1.15, offset: 5 } as const;

type Form = (w: () => string) => string;

/** Title shapes with their weights (out of 100): mostly one to three content words. */
const FORMS: readonly [number, Form][] = [
  [17, (w) => w()],
  [15, (w) => `The ${w()}`],
  [23, (w) => `${w()} ${w()}`],
  [10, (w) => `The ${w()} ${w()}`],
  [9, (w) => `${w()} of the ${w()}`],
  [7, (w) => `${w()} and ${w()}`],
  [5, (w) => `A ${w()} ${w()}`],
  [5, (w) => `${w()} in the ${w()}`],
  [9, (w) => `${w()} ${w()} ${w()}`],
];
const FORM_TOTAL = FORMS.reduce((sum, [weight]) => sum + weight, 0);

/** Builds titles for one catalog: the ranked words and their draw, made once. */
export class SyntheticTitles {
  private readonly draw: ZipfDraw;

  constructor(
    readonly seed: number,
    private readonly vocabulary = new TitleVocabulary(),
  ) {
    this.draw = new ZipfDraw(vocabulary.ranked.length, TITLE_WORDS.exponent, TITLE_WORDS.offset);
  }

  /** The title of the film or series with this id: the same for the same seed and id. */
  titleFor(id: number, purpose: 'film' | 'series'): string {
    const rng = rngFor(this.seed, id, `${purpose}-title`);
    const text = this.form(rng)(() => capitalised(this.draw.pick(rng, this.vocabulary.ranked)));
    // A few films are sequels, as in any real catalog.
    return purpose === 'film' && rng.chance(0.03) ? `${text} ${rng.int(2, 4)}` : text;
  }

  private form(rng: Rng): Form {
    let left = rng.next() * FORM_TOTAL;
    for (const [weight, form] of FORMS) {
      left -= weight;
      if (left < 0) return form;
    }
    return FORMS[0]![1];
  }
}
