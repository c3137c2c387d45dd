import type { Availability, Award, LanguageAudio, ScreenFormat, TitleDetails } from '../model/title.ts';
import { cdataEl, el, type XmlElement } from './node.ts';
import { category } from './links.ts';

/** Synopses hold HTML whose person links are stored as paths; make them absolute. */
export function synopsisElement(base: string, name: 'synopsis' | 'short_synopsis', html: string): XmlElement {
  return cdataEl(name, html.replaceAll('href="/', `href="${base}/`));
}

export function deliveryFormats(base: string, formats: Availability[]): XmlElement {
  return el(
    'delivery_formats',
    null,
    formats.map((f) =>
      el(
        'availability',
        { available_from: f.available_from, available_until: f.available_until ?? undefined },
        category(base, 'title_formats', f.format),
      ),
    ),
  );
}

export function screenFormatsElement(base: string, details: TitleDetails): XmlElement {
  const list = JSON.parse(details.screen_formats) as ScreenFormat[];
  return el(
    'screen_formats',
    null,
    list.map((s) =>
      el(
        'screen_format',
        null,
        category(base, 'title_formats', s.format),
        category(base, 'screen_formats', s.screen_format),
      ),
    ),
  );
}

export function languagesElement(base: string, details: TitleDetails): XmlElement {
  const list = JSON.parse(details.languages_and_audio) as LanguageAudio[];
  return el(
    'languages_and_audio',
    null,
    list.map((l) =>
      el(
        'language_audio_format',
        null,
        el(
          'category',
          { scheme: `${base}/categories/title_formats`, label: l.format, term: l.format },
          el(
            'category',
            { scheme: `${base}/categories/languages`, label: l.language, term: l.language },
            l.audio.map((a) => category(base, 'audio', a)),
          ),
        ),
      ),
    ),
  );
}

export function awardsElement(base: string, details: TitleDetails): XmlElement {
  const list = JSON.parse(details.awards) as Award[];
  return el(
    'awards',
    null,
    list.map((a) =>
      el(
        a.kind === 'winner' ? 'award_winner' : 'award_nominee',
        { year: a.year },
        category(base, 'award_types', a.award),
      ),
    ),
  );
}
