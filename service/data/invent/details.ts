/** Synthetic per-title details: screen formats, languages and audio, awards, bonus materials. */
import {
  AWARD_BODIES,
  AWARD_CATEGORIES_FILM,
  AWARD_CATEGORIES_TV,
  type AudioTerm,
  type LanguageTerm,
  type ScreenFormatTerm,
  type TitleFormat,
} from '../../../shared/protocol/index.ts';
import type { TitleDetailsTable } from '../../store/schema.ts';
import type { Award, LanguageAudio, ScreenFormat } from '../../model/title.ts';
import type { Rng } from '../rng.ts';

export interface DetailsInput {
  titleId: number;
  kind: 'film' | 'tv';
  year: number | null;
  formats: readonly TitleFormat[];
  rating: number | null;
  /** ids of other titles offered as this one's bonus materials */
  bonus?: number[];
  /** whether awards may be drawn (only top-level titles win them) */
  awards?: boolean;
}

// Every value drawn below comes from the protocol's vocabularies (shared/protocol/categories.ts),
// which /categories/<scheme> lists: the types keep it so.

function nativeRatio(rng: Rng, kind: 'film' | 'tv', year: number | null): ScreenFormatTerm {
  const y = year ?? 2000;
  if (kind === 'tv') return y < 2005 ? '1.33:1' : '1.78:1';
  if (y < 1953) return '1.33:1';
  return rng.pick(['1.85:1', '2.35:1', '1.78:1', '2.40:1'] as const satisfies readonly ScreenFormatTerm[]);
}

export function screenFormats(rng: Rng, input: DetailsInput): ScreenFormat[] {
  const native = nativeRatio(rng, input.kind, input.year);
  const out: ScreenFormat[] = [];
  for (const format of input.formats) {
    out.push({ format, screen_format: native });
    // Some DVDs of wide films also carried a full-screen (pan and scan) version.
    if (format === 'DVD' && native !== '1.33:1' && rng.chance(0.1)) out.push({ format, screen_format: '1.33:1' });
  }
  return out;
}

export function languagesAndAudio(rng: Rng, input: DetailsInput): LanguageAudio[] {
  const old = (input.year ?? 2000) < 1970;
  const out: LanguageAudio[] = [];
  for (const format of input.formats) {
    const english: AudioTerm[] =
      format === 'Blu-ray'
        ? ['DTS-HD Master Audio 5.1', 'Dolby Digital 5.1']
        : old
          ? ['Mono']
          : format === 'instant'
            ? [rng.chance(0.6) ? 'Dolby Digital 5.1' : 'Stereo']
            : ['Dolby Digital 5.1', 'Dolby Digital 2.0'];
    const track = (language: LanguageTerm, audio: AudioTerm[]): LanguageAudio => ({ format, language, audio });
    out.push(track('English', english));
    if (format !== 'instant' && rng.chance(0.35)) out.push(track('French', ['Dolby Digital 2.0']));
    if (format !== 'instant' && rng.chance(0.45)) out.push(track('Spanish', ['Dolby Digital 2.0']));
  }
  return out;
}

/** Most titles have none; well-rated ones are likelier to; years never precede the release. */
export function awards(rng: Rng, input: DetailsInput): Award[] {
  if (input.awards === false || input.year === null) return [];
  const p = 0.05 + ((input.rating ?? 3) >= 4 ? 0.15 : 0);
  if (!rng.chance(p)) return [];
  const categories = input.kind === 'tv' ? AWARD_CATEGORIES_TV : AWARD_CATEGORIES_FILM;
  const n = rng.int(1, 3);
  const out: Award[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const award = `${rng.pick(AWARD_BODIES)}: ${rng.pick(categories)}`;
    if (seen.has(award)) continue;
    seen.add(award);
    out.push({ kind: rng.chance(0.4) ? 'winner' : 'nominee', year: input.year + rng.int(0, 1), award });
  }
  return out;
}

export function detailsRow(rng: Rng, input: DetailsInput): TitleDetailsTable {
  return {
    title_id: input.titleId,
    screen_formats: JSON.stringify(screenFormats(rng, input)),
    languages_and_audio: JSON.stringify(languagesAndAudio(rng, input)),
    awards: JSON.stringify(awards(rng, input)),
    bonus_materials: JSON.stringify(input.bonus ?? []),
  };
}
