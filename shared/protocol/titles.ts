/** Title types and the URL path segment each lives under (service-spec "Resource tree"). */
export const TITLE_TYPES = ['movie', 'series', 'season', 'program', 'disc'] as const;
export type TitleType = (typeof TITLE_TYPES)[number];

export const TYPE_PATH: Record<Exclude<TitleType, 'season'>, string> = {
  movie: 'movies',
  series: 'series',
  program: 'programs',
  disc: 'discs',
};

/** Path of a title under the base URL, e.g. `/catalog/titles/series/70100001/seasons/70100002`. */
export function titlePath(type: TitleType, id: number, seriesId?: number | null): string {
  if (type === 'season') return `/catalog/titles/series/${seriesId}/seasons/${id}`;
  return `/catalog/titles/${TYPE_PATH[type]}/${id}`;
}

export function personPath(id: number): string {
  return `/catalog/people/${id}`;
}

/** Extracts a title's numeric id from any title ref whose path names a title (host ignored). */
export function titleIdFromRef(ref: string): number | null {
  let path: string;
  try {
    path = new URL(ref, 'http://x').pathname;
  } catch {
    return null;
  }
  const m = /^\/catalog\/titles\/(?:movies|series|programs|discs|series\/\d+\/seasons)\/(\d+)\/?$/.exec(path);
  return m ? Number(m[1]) : null;
}
