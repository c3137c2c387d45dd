/**
 * Title expansion names (service-spec "Title expansion"): the link titles a client may pass in
 * `expand`. Version 1.0 knows the first twelve; 1.5 adds the later ones.
 */
export const EXPAND_V1_0 = [
  'synopsis',
  'formats',
  'screen formats',
  'cast',
  'directors',
  'languages and audio',
  'seasons',
  'episodes',
  'discs',
  'similars',
  'filmography',
] as const;
export const EXPAND_V1_5_EXTRA = [
  'short synopsis',
  'awards',
  'bonus materials',
  'person',
  'queue item',
  'user',
] as const;
export type ExpandName = (typeof EXPAND_V1_0)[number] | (typeof EXPAND_V1_5_EXTRA)[number];

export const API_VERSIONS = ['1.0', '1.5'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** Parses `expand` (comma-separated, already percent-decoded); unknown or version-gated names are dropped. */
export function parseExpand(raw: string | undefined, version: ApiVersion): Set<ExpandName> {
  const known = new Set<string>(version === '1.5' ? [...EXPAND_V1_0, ...EXPAND_V1_5_EXTRA] : EXPAND_V1_0);
  const names = new Set<ExpandName>();
  for (const part of (raw ?? '').split(',')) {
    const name = part.trim().toLowerCase();
    if (known.has(name)) names.add(name as ExpandName);
  }
  return names;
}
