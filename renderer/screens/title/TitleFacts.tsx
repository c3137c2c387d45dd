import type { Availability, Award, LanguageAudio, ScreenFormat, TitleDetail } from '../../../shared/models.ts';
import { formatDate } from '../../words.ts';

const FORMAT_WORDS: Record<string, string> = { instant: 'Streaming' };
const formatWord = (format: string) => FORMAT_WORDS[format] ?? format;

/** "Streaming until 12 Mar", "DVD from 3 Apr 2027", "Blu-ray". */
export function availabilityWords(a: Availability, now = Date.now()): string {
  const name = formatWord(a.format);
  if (a.from * 1000 > now) return `${name} from ${formatDate(a.from, { year: 'other' })}`;
  if (a.until !== null)
    return a.until * 1000 < now
      ? `${name}: no longer available`
      : `${name} until ${formatDate(a.until, { year: 'other' })}`;
  return name;
}

/** Formats with their windows, screen formats, languages and audio, awards: a definition list. */
export function TitleFacts({ title }: { title: TitleDetail }) {
  const rows: [string, string[]][] = [
    [
      'Available',
      title.availability.length ? title.availability.map((a) => availabilityWords(a)) : title.formats.map(formatWord),
    ],
    ['Picture', screenFormatWords(title.screenFormats)],
    ['Languages and audio', languageWords(title.languages)],
    ['Awards', awardWords(title.awards ?? [])],
  ];
  const shown = rows.filter(([, values]) => values.length > 0);
  if (!shown.length) return null;
  return (
    <dl className="title-facts">
      {shown.map(([term, values]) => (
        <div key={term} className="fact">
          <dt>{term}</dt>
          {values.map((v) => (
            <dd key={v}>{v}</dd>
          ))}
        </div>
      ))}
    </dl>
  );
}

/** "2.40:1 (Streaming, DVD, Blu-ray)": one line per screen format. */
function screenFormatWords(formats: ScreenFormat[]): string[] {
  const byScreen = new Map<string, string[]>();
  for (const f of formats)
    byScreen.set(f.screenFormat, [...(byScreen.get(f.screenFormat) ?? []), formatWord(f.format)]);
  return [...byScreen].map(([screen, on]) => `${screen} (${on.join(', ')})`);
}

/** "English: Dolby Digital 5.1, DTS-HD Master Audio 5.1": one line per language, audio merged over formats. */
function languageWords(languages: LanguageAudio[]): string[] {
  const byLanguage = new Map<string, Set<string>>();
  for (const l of languages) {
    const audio = byLanguage.get(l.language) ?? new Set<string>();
    for (const a of l.audio) audio.add(a);
    byLanguage.set(l.language, audio);
  }
  return [...byLanguage].map(([language, audio]) => (audio.size ? `${language}: ${[...audio].join(', ')}` : language));
}

function awardWords(awards: Award[]): string[] {
  return awards.map((a) => `${a.won ? 'Won' : 'Nominated'}: ${a.name}${a.year ? ` (${a.year})` : ''}`);
}
