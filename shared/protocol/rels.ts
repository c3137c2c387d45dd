/** Link relation URLs of the contract (CONTRACT.md §2). The spelling is the interface: keep it exact. */
export const SCHEMA_BASE = 'http://schemas.netflix.com/';

export const rel = {
  title: `${SCHEMA_BASE}catalog/title`,
  synopsis: `${SCHEMA_BASE}catalog/titles/synopsis`,
  shortSynopsis: `${SCHEMA_BASE}catalog/titles/synopsis.short`,
  formats: `${SCHEMA_BASE}catalog/titles/format_availability`,
  screenFormats: `${SCHEMA_BASE}catalog/titles/screen_formats`,
  languagesAndAudio: `${SCHEMA_BASE}catalog/titles/languages_and_audio`,
  cast: `${SCHEMA_BASE}catalog/people.cast`,
  directors: `${SCHEMA_BASE}catalog/people.directors`,
  similars: `${SCHEMA_BASE}catalog/titles.similars`,
  awards: `${SCHEMA_BASE}catalog/titles/awards`,
  bonusMaterials: `${SCHEMA_BASE}catalog/titles/bonus_materials`,
  seasons: `${SCHEMA_BASE}catalog/titles.seasons`,
  episodes: `${SCHEMA_BASE}catalog/titles.programs`,
  discs: `${SCHEMA_BASE}catalog/titles.discs`,
  series: `${SCHEMA_BASE}catalog/titles.series`,
  season: `${SCHEMA_BASE}catalog/titles.season`,
  person: `${SCHEMA_BASE}catalog/person`,
  personActor: `${SCHEMA_BASE}catalog/person.actor`,
  personDirector: `${SCHEMA_BASE}catalog/person.director`,
  /** Historical typo, emitted as-is because real clients match it (HISTORICAL-REFERENCE §4.6). */
  filmography: `${SCHEMA_BASE}catlog/person/filmography`,
  webPage: 'alternate',
  catalogTitles: `${SCHEMA_BASE}catalog/titles`,
  catalogPeople: `${SCHEMA_BASE}catalog/people`,
  catalogTitlesIndex: `${SCHEMA_BASE}catalog/titles/index`,
  catalogTitlesFull: `${SCHEMA_BASE}catalog/titles/full`,
  catalogAutocomplete: `${SCHEMA_BASE}catalog/titles/autocomplete`,
  userCurrent: `${SCHEMA_BASE}user.current`,
} as const;
