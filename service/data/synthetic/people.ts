/** Synthetic people's names: faker's English first and last names, each drawn with a long tail, combined. */
import { faker } from '@faker-js/faker/locale/en';
import { hashString, rngFor } from '../rng.ts';
import { ZipfDraw } from './zipf.ts';

/** Flatter than titles' tail: the commonest first name is ~5% of people, as in real populations. */
const NAME_EXPONENT = 0.8;
const INITIALS = 'ABCDEFGHJKLMNPRSTW';

/** Names for one catalog's people, the same for the same seed and person. */
export class SyntheticNames {
  private readonly firsts: readonly string[];
  private readonly lasts: readonly string[];
  private readonly firstDraw: ZipfDraw;
  private readonly lastDraw: ZipfDraw;

  constructor(readonly seed: number) {
    // The English locale alone: the package's main entry would load every locale.
    const first = faker.rawDefinitions.person?.first_name;
    const last = faker.rawDefinitions.person?.last_name;
    this.firsts = unique([...(first?.generic ?? []), ...(first?.female ?? []), ...(first?.male ?? [])]);
    this.lasts = unique([...(last?.generic ?? []), ...(last?.female ?? []), ...(last?.male ?? [])]);
    if (this.firsts.length === 0 || this.lasts.length === 0)
      throw new Error("@faker-js/faker's English locale has no first or last names: check the installed version");
    this.firstDraw = new ZipfDraw(this.firsts.length, NAME_EXPONENT);
    this.lastDraw = new ZipfDraw(this.lasts.length, NAME_EXPONENT);
  }

  /** The name of the person at `index` of the pool: first, sometimes a middle initial, last, sometimes double-barrelled. */
  nameOf(index: number): string {
    const rng = rngFor(this.seed, index, 'person-name');
    const first = this.firstDraw.pick(rng, this.firsts);
    const initial = rng.chance(0.2) ? ` ${INITIALS.charAt(rng.int(0, INITIALS.length - 1))}.` : '';
    const last = this.lastDraw.pick(rng, this.lasts);
    const second = rng.chance(0.05) ? `-${this.lastDraw.pick(rng, this.lasts)}` : '';
    return `${first}${initial} ${last}${second}`;
  }
}

/** Distinct names in a fixed order by hash: faker's lists are alphabetical, and "A" names must not be the common ones. */
function unique(names: string[]): string[] {
  return [...new Set(names)].sort((a, b) => hashString(a) - hashString(b) || (a < b ? -1 : 1));
}
