import { XMLParser } from 'fast-xml-parser';
import { isRoot } from '../../electron/core/xml/parse.ts';

/** Parses a response as the app will: attributes kept, values as strings, lists always arrays. */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  jPath: false, // as the app's parser: no path string built for every element
  // A list element at the root (a single fetched title) stays an object.
  isArray: (name, path) =>
    !isRoot(path) &&
    [
      'catalog_title',
      'link',
      'category',
      'person',
      'autocomplete_item',
      'category_item',
      'title_index_item',
      'filmography_item',
      'availability',
      'screen_format',
      'language_audio_format',
      'award_winner',
      'award_nominee',
      'rental_history_item',
      'at_home_item',
      'list',
      'list_item',
      'ratings_item',
      'recommendation',
      'title_state',
      'title_state_item',
    ].includes(name),
});

// Parsed XML is untyped by nature; tests reach into it by the contract's element names.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Xml = any;

export function parseXml(body: string): Xml {
  return parser.parse(body);
}

/** The links of an element by their title attribute. */
export function linksByTitle(element: Xml): Record<string, Xml> {
  return Object.fromEntries((element.link ?? []).map((l: Xml) => [l.title, l]));
}

/** The contract's children of a title in a list that predicts a rating (ratings, recommendations), in order. */
export const PREDICTED_TITLE_CHILDREN = [
  'id',
  'link',
  'title',
  'box_art',
  'release_year',
  'category',
  'runtime',
  'average_rating',
  'predicted_rating',
] as const;

/** Child element names in document order, once each (for exact element-set checks). */
export function childNames(xml: string, element: string): string[] {
  const start = xml.indexOf(`<${element}>`);
  const end = xml.indexOf(`</${element}>`, start);
  const inner = xml.slice(start + element.length + 2, end);
  const names: string[] = [];
  let depth = 0;
  for (const m of inner.matchAll(/<(\/?)([a-z_]+)[^>]*?(\/?)>/g)) {
    if (m[1]) depth--;
    else {
      if (depth === 0 && !names.includes(m[2]!)) names.push(m[2]!);
      if (!m[3]) depth++;
    }
  }
  return names;
}
