import { describe, expect, it } from 'vitest';
import { renderBoxArt, wrapTitle } from '../../service/data/invent/box-art.ts';

const title = { id: 60000042, title: 'Tom & Jerry <The Movie> "Deluxe"', release_year: 1992, genre: 'Comedy' };

/** Tags balance and every & starts an entity: enough to know a parser will accept it. */
function wellFormed(svg: string): boolean {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
    if (m[3]) continue;
    if (m[1]) {
      if (stack.pop() !== m[2]) return false;
    } else stack.push(m[2] as string);
  }
  return stack.length === 0 && !/&(?!(amp|lt|gt|quot|apos);)/.test(svg);
}

describe('box art', () => {
  it('is a standalone SVG of the size asked for', () => {
    for (const [size, w, h] of [
      ['small', 64, 90],
      ['medium', 110, 150],
      ['large', 284, 405],
    ] as const) {
      const svg = renderBoxArt(title, size);
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg.endsWith('</svg>')).toBe(true);
      expect(svg).toContain(`width="${w}" height="${h}"`);
      expect(wellFormed(svg)).toBe(true);
    }
  });

  it('escapes the title and shows the year', () => {
    const svg = renderBoxArt(title, 'large');
    expect(svg).toContain('Tom &amp; Jerry');
    expect(svg).toContain('&lt;The');
    expect(svg).not.toContain('<The');
    expect(svg).toContain('>1992<');
  });

  it('is the same for the same title and differs between titles', () => {
    expect(renderBoxArt(title, 'medium')).toBe(renderBoxArt(title, 'medium'));
    expect(renderBoxArt(title, 'medium')).not.toBe(renderBoxArt({ ...title, id: 60000043 }, 'medium'));
  });

  it('names a face Linux has (DejaVu) before the generic family, so the browser need not resolve the fallback for every poster', () => {
    const families = [...renderBoxArt(title, 'medium').matchAll(/font-family="([^"]+)"/g)].map((m) =>
      m[1]!.split(',').map((f) => f.trim()),
    );
    expect(families).toHaveLength(2);
    for (const stack of families) {
      const dejavu = stack.findIndex((f) => /^'DejaVu (Serif|Sans)'$/.test(f));
      expect(dejavu).toBeGreaterThan(-1);
      expect(dejavu).toBeLessThan(stack.findIndex((f) => f === 'serif' || f === 'sans-serif'));
    }
  });

  it('copes with no year, no genre and very long words', () => {
    const svg = renderBoxArt(
      { id: 1, title: 'Supercalifragilisticexpialidocious '.repeat(6), release_year: null },
      'small',
    );
    expect(wellFormed(svg)).toBe(true);
    expect(svg).toContain('…');
  });

  it('wraps titles into lines that fit', () => {
    expect(wrapTitle('The Lord of the Rings', 10, 4)).toEqual(['The Lord', 'of the', 'Rings']);
    expect(wrapTitle('a b c d e f', 1, 3)).toEqual(['a', 'b', '…']);
  });

  it('never breaks a word mid-word at any size: a long word gets a smaller font ("Trainspotting", not "Trainspotti/ng")', () => {
    for (const size of ['small', 'medium', 'large'] as const) {
      const svg = renderBoxArt({ id: 7, title: 'Trainspotting', release_year: 1996 }, size);
      const lines = [...svg.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]);
      expect(lines, size).toEqual(['Trainspotting']);
    }
    expect(renderBoxArt({ id: 7, title: 'Trainspotting', release_year: 1996 }, 'medium')).toContain('font-size="11"');
  });

  it('breaks a word too long even for the smallest font with a hyphen, not silently', () => {
    expect(wrapTitle('Supercalifragilistic', 8, 4)).toEqual(['Superca-', 'lifragi-', 'listic']);
  });
});
