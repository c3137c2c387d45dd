/** Generated poster art: a standalone SVG per title and size, colours fixed by its id and genre. */
import { mix } from '../rng.ts';

export type BoxArtSize = 'small' | 'medium' | 'large';

interface Geometry {
  w: number;
  h: number;
  font: number;
  yearFont: number;
  lines: number;
  pad: number;
}

/** The historical tiny / small / large box shots, in points. */
const GEOMETRY: Record<BoxArtSize, Geometry> = {
  small: { w: 64, h: 90, font: 9, yearFont: 7, lines: 4, pad: 4 },
  medium: { w: 110, h: 150, font: 13, yearFont: 10, lines: 4, pad: 7 },
  large: { w: 284, h: 405, font: 30, yearFont: 20, lines: 5, pad: 18 },
};

/** A base hue per genre so a shelf of one genre looks like one; the id shifts it a little. */
const GENRE_HUES: Record<string, number> = {
  'Action & Adventure': 18,
  Animation: 48,
  'Children & Family': 95,
  Comedy: 40,
  Documentary: 200,
  Drama: 265,
  Horror: 0,
  Independent: 170,
  'Music & Musicals': 310,
  Romance: 335,
  'Sci-Fi & Fantasy': 220,
  Thrillers: 235,
  Westerns: 28,
  Television: 185,
};

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;',
  );
}

/** HSL (degrees, 0–1, 0–1) to #rrggbb: hex colours render everywhere, hsl() not in every SVG tool. */
function hex(h: number, s: number, l: number): string {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const v = l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/**
 * Font stacks that name a face before the generic family: each poster is laid out by the browser
 * as a document of its own, and a family it has to resolve through the generic fallback (Georgia
 * and Helvetica are absent on Linux) cost that every time: 20 medium posters in Chromium took
 * 140–150 ms with "Georgia, 'Times New Roman', serif" and 60–80 ms with DejaVu named after Georgia.
 */
const SERIF = `Georgia, 'DejaVu Serif', 'Times New Roman', serif`;
const SANS = `Helvetica, 'DejaVu Sans', Arial, sans-serif`;

/** Average glyph width of a bold serif face (Georgia, DejaVu Serif Bold), in em. */
const GLYPH_EM = 0.64;
/** The title may shrink to this share of the size's font so its longest word fits on a line. */
const MIN_FONT_SCALE = 0.7;

/** The font size at which the title's longest word fits the art's width (never above the size's own, never below MIN_FONT_SCALE of it). */
export function fittingFont(title: string, g: { w: number; pad: number; font: number }): number {
  const longest = Math.max(1, ...title.split(/\s+/).map((w) => w.length));
  const fits = Math.floor((g.w - 2 * g.pad) / (longest * GLYPH_EM));
  return Math.max(Math.round(g.font * MIN_FONT_SCALE), Math.min(g.font, fits));
}

/**
 * Greedy word wrap; a word longer than a line (even at the smallest font) is broken with a hyphen,
 * and the last line ends in "…" if text remains.
 */
export function wrapTitle(title: string, perLine: number, maxLines: number): string[] {
  const words = title.split(/\s+/).filter((w) => w.length > 0);
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < words.length; i++) {
    let word = words[i] as string;
    while (word.length > perLine) {
      if (line) {
        lines.push(line);
        line = '';
      }
      lines.push(`${word.slice(0, perLine - 1)}-`);
      word = word.slice(perLine - 1);
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= perLine) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1] as string;
  kept[maxLines - 1] = `${last.length >= perLine ? last.slice(0, perLine - 1) : last}…`;
  return kept;
}

export function renderBoxArt(
  t: { id: number; title: string; release_year: number | null; genre?: string | undefined },
  size: BoxArtSize,
): string {
  const g = GEOMETRY[size];
  const h = mix(t.id);
  const hue = ((GENRE_HUES[t.genre ?? ''] ?? h % 360) + (h % 31) - 15 + 360) % 360;
  const top = hex(hue, 0.55, 0.42);
  const bottom = hex((hue + 25) % 360, 0.6, 0.14);
  const accent = hex((hue + 180) % 360, 0.5, 0.6);
  const gradient = `bg${t.id}`;

  const font = fittingFont(t.title, g);
  const perLine = Math.max(4, Math.floor((g.w - 2 * g.pad) / (font * GLYPH_EM)));
  const lines = wrapTitle(t.title, perLine, g.lines);
  const lineHeight = Math.round(font * 1.15);
  const firstY = Math.round(g.h * 0.3);
  const cx = g.w / 2;
  const tspans = lines
    .map((l, i) => `<tspan x="${cx}" y="${firstY + i * lineHeight}">${escapeXml(l)}</tspan>`)
    .join('');

  // One decorative disc, placed by the id, so neighbouring posters differ in shape as well as colour.
  const r = Math.round(g.w * (0.25 + (h % 20) / 100));
  const circle = `<circle cx="${Math.round(g.w * (0.2 + ((h >>> 5) % 60) / 100))}" cy="${Math.round(g.h * 0.72)}" r="${r}" fill="${accent}" fill-opacity="0.25"/>`;
  const year =
    t.release_year === null
      ? ''
      : `<text x="${cx}" y="${g.h - g.pad - 2}" font-family="${SANS}" font-size="${g.yearFont}" fill="#ffffff" fill-opacity="0.8" text-anchor="middle">${t.release_year}</text>`;
  const label = escapeXml(t.release_year === null ? t.title : `${t.title} (${t.release_year})`);

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${g.w}" height="${g.h}" viewBox="0 0 ${g.w} ${g.h}" role="img" aria-label="${label}">` +
    `<defs><linearGradient id="${gradient}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs>` +
    `<rect width="${g.w}" height="${g.h}" fill="url(#${gradient})"/>${circle}` +
    `<rect x="${g.pad / 2}" y="${g.pad / 2}" width="${g.w - g.pad}" height="${g.h - g.pad}" fill="none" stroke="#ffffff" stroke-opacity="0.35"/>` +
    `<text font-family="${SERIF}" font-size="${font}" font-weight="bold" fill="#ffffff" text-anchor="middle">${tspans}</text>` +
    `${year}</svg>`
  );
}
