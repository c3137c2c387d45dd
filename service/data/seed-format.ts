/** The committed demo seed: gzip of compact JSON, films as tuples, directors and genres by index. */
import { gunzipSync, gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { GENRES, MPAA_RATINGS, type Genre } from '../../shared/protocol/index.ts';

export interface SeedFilm {
  title: string;
  year: number;
  mpaa: string;
  /** minutes; null when neither source knows */
  runtime: number | null;
  /** 1.0–5.0, one decimal; null when neither source rates it */
  rating: number | null;
  genres: Genre[];
  directors: string[];
}

/** [title, year, mpaa index, runtime minutes or 0, rating×10 or 0, genre indexes, director indexes] */
type FilmTuple = [string, number, number, number, number, number[], number[]];

interface SeedFile {
  v: 1;
  genres: string[];
  mpaa: string[];
  directors: string[];
  films: FilmTuple[];
}

export const SEED_URL = new URL('./demo-catalog.json.gz', import.meta.url);

/** Deterministic bytes: gzip's mtime is 0 in Node and we pin the OS byte too. */
export function encodeSeed(films: SeedFilm[]): Buffer {
  const directors = [...new Set(films.flatMap((f) => f.directors))].sort();
  const dIndex = new Map(directors.map((d, i) => [d, i]));
  const file: SeedFile = {
    v: 1,
    genres: [...GENRES],
    mpaa: [...MPAA_RATINGS],
    directors,
    films: films.map((f) => [
      f.title,
      f.year,
      MPAA_RATINGS.indexOf(f.mpaa as (typeof MPAA_RATINGS)[number]),
      f.runtime ?? 0,
      f.rating === null ? 0 : Math.round(f.rating * 10),
      f.genres.map((g) => GENRES.indexOf(g)),
      f.directors.map((d) => dIndex.get(d) as number),
    ]),
  };
  const gz = gzipSync(JSON.stringify(file), { level: 9 });
  gz[9] = 3; // OS = Unix, whatever platform built it
  return gz;
}

export function decodeSeed(gz: Uint8Array): SeedFilm[] {
  const file = JSON.parse(gunzipSync(gz).toString('utf8')) as SeedFile;
  if (file.v !== 1) throw new Error(`unknown demo seed version ${String(file.v)}`);
  const genres = file.genres.map((g) => {
    if (!(GENRES as readonly string[]).includes(g)) throw new Error(`demo seed genre not in GENRES: ${g}`);
    return g as Genre;
  });
  return file.films.map(([title, year, mpaa, runtime, rating, gs, ds]) => ({
    title,
    year,
    mpaa: file.mpaa[mpaa] ?? 'NR',
    runtime: runtime > 0 ? runtime : null,
    rating: rating > 0 ? rating / 10 : null,
    genres: gs.map((i) => genres[i] as Genre),
    directors: ds.map((i) => file.directors[i] as string),
  }));
}

let cached: SeedFilm[] | undefined;

/** The seed's films, read once per process. */
export function readDemoSeed(): SeedFilm[] {
  cached ??= decodeSeed(readFileSync(SEED_URL));
  return cached;
}
