import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENRES, MPAA_RATINGS } from '../../shared/protocol/index.ts';
import { buildFilms, readSources } from '../../service/data/sources/build.ts';
import { decodeSeed, encodeSeed, readDemoSeed, SEED_URL } from '../../service/data/seed-format.ts';
import { titleKey } from '../../service/data/sources/clean.ts';

const films = readDemoSeed();
const find = (title: string) => films.filter((f) => f.title === title);

describe('committed demo seed', () => {
  it('is small and holds the expected number of films', () => {
    expect(readFileSync(SEED_URL).length).toBeLessThan(200_000);
    expect(films.length).toBeGreaterThanOrEqual(3_500);
    expect(films.length).toBeLessThanOrEqual(4_500);
  });

  it('matches what the builder makes from the pinned sources now', () => {
    const { vega, md } = readSources();
    const built = buildFilms(vega, md).films;
    expect(decodeSeed(encodeSeed(built))).toEqual(films);
  });

  it('encodes deterministically', () => {
    expect(encodeSeed(films).equals(encodeSeed(films))).toBe(true);
  });

  it('has only non-empty string titles', () => {
    expect(films.filter((f) => typeof f.title !== 'string' || f.title.trim() === '')).toEqual([]);
  });

  it('has no release year in the future or before film existed', () => {
    const limit = new Date().getUTCFullYear() + 1;
    expect(films.filter((f) => f.year > limit || f.year < 1890)).toEqual([]);
  });

  it('has no duplicate normalised title and year', () => {
    const keys = films.map((f) => `${titleKey(f.title)}|${f.year}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('maps genres and ratings onto the shared lists', () => {
    const genres = new Set(films.flatMap((f) => f.genres));
    expect([...genres].every((g) => (GENRES as readonly string[]).includes(g))).toBe(true);
    expect(genres.has('Television')).toBe(false);
    expect(films.filter((f) => f.genres.length === 0)).toEqual([]);
    expect(new Set(films.map((f) => f.mpaa)).size).toBeGreaterThan(3);
    expect(films.filter((f) => !(MPAA_RATINGS as readonly string[]).includes(f.mpaa))).toEqual([]);
    expect(films.filter((f) => f.rating !== null && (f.rating < 1 || f.rating > 5))).toEqual([]);
  });

  it('repairs the known source faults', () => {
    expect(find('Duel in the Sun').map((f) => f.year)).toEqual([1946]);
    expect(find('1776').map((f) => f.year)).toEqual([1972]);
    expect(find('King Kong').map((f) => f.year)).toEqual([1933, 1976, 2005]);
    expect(find('Léon: The Professional')).toHaveLength(1);
    expect(find('Léon')).toHaveLength(0);
    expect(find('The Barbarians')).toHaveLength(1);
    expect(find('Fantasia 2000')).toHaveLength(1);
  });

  it('merges the two lists and prefers their better director credit', () => {
    const [gwtw] = find('Gone with the Wind');
    expect(gwtw?.year).toBe(1939);
    expect(gwtw?.directors).toEqual(['Victor Fleming']);
    expect(gwtw?.rating).not.toBeNull();
    expect(find('Amores Perros')).toHaveLength(1);
  });
});
