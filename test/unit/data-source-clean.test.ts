import { describe, expect, it } from 'vitest';
import {
  cleanDirector,
  cleanTitle,
  fixCentury,
  fixMojibake,
  titleKey,
  vegaYear,
} from '../../service/data/sources/clean.ts';
import { mdGenres, mpaaRating, vegaGenres } from '../../service/data/sources/genres.ts';

describe('source cleaning', () => {
  it('re-decodes titles garbled as Mac Roman and leaves clean ones alone', () => {
    expect(fixMojibake('LÈon')).toBe('Léon');
    expect(fixMojibake('Die F‰lscher')).toBe('Die Fälscher');
    expect(fixMojibake('The Naked Gun 2Ω: The Smell of Fear')).toBe('The Naked Gun 2½: The Smell of Fear');
    expect(fixMojibake('Alien³')).toBe('Alien³');
    expect(fixMojibake('Ri¢hie Ri¢h')).toBe('Ri¢hie Ri¢h');
  });

  it('moves two-digit-year parses back a century', () => {
    expect(vegaYear('Dec 31 2046')).toBe(1946);
    expect(vegaYear('Jun 12 1998')).toBe(1998);
    expect(vegaYear('Apr 01 2011')).toBe(2011);
    expect(fixCentury(2039)).toBe(1939);
    expect(vegaYear(null)).toBeNull();
  });

  it('keeps numeric titles as text and drops missing ones', () => {
    expect(cleanTitle(1776)).toBe('1776');
    expect(cleanTitle(null)).toBeNull();
    expect(cleanTitle('   ')).toBeNull();
  });

  it('un-inverts articles, collapses spaces and drops edition suffixes', () => {
    expect(cleanTitle('Charge of the Light Brigade, The')).toBe('The Charge of the Light Brigade');
    expect(cleanTitle('Halloween:  The Curse of Michael Myers')).toBe('Halloween: The Curse of Michael Myers');
    expect(cleanTitle('King Kong (1933)')).toBe('King Kong');
    expect(cleanTitle('Fantasia 2000 (IMAX)')).toBe('Fantasia 2000');
    expect(cleanTitle('Steal (Canadian Release)')).toBe('Steal');
    expect(cleanTitle('Star Wars Ep. IV: A New Hope')).toBe('Star Wars: Episode IV - A New Hope');
  });

  it('keys titles without accents, case, punctuation or articles', () => {
    expect(titleKey('Léon')).toBe(titleKey('LEON'));
    expect(titleKey('Thelma & Louise')).toBe(titleKey('Thelma and Louise'));
    expect(titleKey('Ghost Dog: The Way of the Samurai')).toBe(titleKey('Ghost Dog: Way of the Samurai'));
    expect(titleKey('Kill Bill: Vol. 1')).toBe(titleKey('Kill Bill: Volume 1'));
  });

  it('trims directors and resolves known aliases', () => {
    expect(cleanDirector(' David Zucker')).toBe('David Zucker');
    expect(cleanDirector('Sir Richard Attenborough')).toBe('Richard Attenborough');
    expect(cleanDirector('')).toBeNull();
  });

  it('maps both genre vocabularies and never yields Television', () => {
    expect(
      vegaGenres({ 'Major Genre': 'Romantic Comedy', 'Creative Type': 'Science Fiction', Distributor: 'Miramax' }),
    ).toEqual(['Romance', 'Comedy', 'Sci-Fi & Fantasy', 'Independent']);
    expect(mdGenres(['crime', ' drama', ' sci_fi'])).toEqual(['Thrillers', 'Drama', 'Sci-Fi & Fantasy']);
    expect(mdGenres(['comedy', ' tv'])).toEqual(['Comedy']);
  });

  it('normalises MPAA ratings, missing ones to NR', () => {
    expect(mpaaRating('PG-13')).toBe('PG-13');
    expect(mpaaRating('Not Rated')).toBe('NR');
    expect(mpaaRating('Open')).toBe('NR');
    expect(mpaaRating(null)).toBe('NR');
  });
});
