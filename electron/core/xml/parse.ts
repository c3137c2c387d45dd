import { XMLParser, type MatcherView } from 'fast-xml-parser';
import { rel } from '../../../shared/protocol/rels.ts';
import type { Category, Page, Ref, User } from '../../../shared/models.ts';
import { ServiceError } from '../types.ts';

/**
 * The service's POX (CONTRACT.md §1–2) → plain objects → shared/models.ts. Text and attributes are
 * kept as strings (ids with leading zeros, etags like `0`); the elements that may repeat are always
 * arrays, so a list of one item looks like a list of many. Title-bearing mappers live in
 * titles.ts and user.ts; this file holds the parser, the tree helpers and the small mappers.
 */

/** A parsed element: attributes under `@name`, text under `#text`, children by name. */
export type XNode = { [key: string]: unknown };

/** Elements that may repeat: always parsed as arrays (except as the document root). */
export const ARRAY_ELEMENTS: ReadonlySet<string> = new Set([
  'catalog_title',
  'link',
  'category',
  'person',
  'queue_item',
  'ratings_item',
  'recommendation',
  'rental_history_item',
  'at_home_item',
  'availability',
  'screen_format',
  'language_audio_format',
  'autocomplete_item',
  'category_item',
  'title_state',
  'title_state_item',
  'filmography_item',
  'title_index_item',
  'award_winner',
  'award_nominee',
  'list',
  'list_item',
  'entry',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
  // Callbacks get the parser's own path rather than a string of it built for every element and
  // attribute, a cost of every parse that only isArray's root check would read.
  jPath: false,
  isArray: (name, path, _leaf, isAttribute) => !isAttribute && ARRAY_ELEMENTS.has(name) && !isRoot(path),
});

/** Whether the parser is at the document's root element (a path string with `jPath: true`, else its matcher). */
export function isRoot(path: string | MatcherView): boolean {
  return typeof path === 'string' ? !path.includes('.') : path.getDepth() === 1;
}

/** An unexpected body: reported as a server error (the renderer gets it as a value). */
export function badResponse(message: string): ServiceError {
  return new ServiceError({ kind: 'server', message: `Unexpected response from the service: ${message}` });
}

/** Parses a body and returns its root element, which must be `name` (one of `name` when a list). */
export function parseRoot(body: string, name: string | readonly string[]): XNode {
  let doc: XNode;
  try {
    doc = parser.parse(body) as XNode;
  } catch (error) {
    throw badResponse(`malformed XML (${(error as Error).message})`);
  }
  const names = typeof name === 'string' ? [name] : name;
  for (const n of names) {
    if (n in doc) return asNode(doc[n]);
  }
  throw badResponse(`expected <${names.join('> or <')}>, got <${Object.keys(doc).join('>, <') || 'nothing'}>`);
}

/** The root element's name (for bodies that may be one of several things). */
export function rootName(body: string): string | undefined {
  try {
    return Object.keys(parser.parse(body) as XNode)[0];
  } catch {
    return undefined;
  }
}

function asNode(value: unknown): XNode {
  if (Array.isArray(value)) return asNode(value[0]);
  if (value !== null && typeof value === 'object') return value as XNode;
  if (typeof value === 'string' && value !== '') return { '#text': value };
  return {};
}

/** Every `name` child (an empty element counts as an empty node). */
export function kids(node: XNode | undefined, name: string): XNode[] {
  const value = node?.[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(asNode);
}

export function child(node: XNode | undefined, name: string): XNode | undefined {
  return node && name in node ? asNode(node[name]) : undefined;
}

/** An element's own text. */
export function ownText(node: XNode | undefined): string {
  const t = node?.['#text'];
  return typeof t === 'string' ? t : typeof t === 'number' || typeof t === 'boolean' ? String(t) : '';
}

/** The text of the first `name` child, or undefined when there is none. */
export function text(node: XNode | undefined, name: string): string | undefined {
  const value = node?.[name];
  if (value === undefined) return undefined;
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : ownText(asNode(first));
}

export function attr(node: XNode | undefined, name: string): string | undefined {
  const v = node?.[`@${name}`];
  return typeof v === 'string' ? v : undefined;
}

/** A number from text, or null when absent or not a number. */
export function num(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

export interface Link {
  href: string;
  rel: string;
  title: string;
  node: XNode;
}

export function links(node: XNode | undefined): Link[] {
  return kids(node, 'link').map((l) => ({
    href: attr(l, 'href') ?? '',
    rel: attr(l, 'rel') ?? '',
    title: attr(l, 'title') ?? '',
    node: l,
  }));
}

/** The link with relation `relation` (or, failing that, whose title is `title`). */
export function findLink(node: XNode | undefined, relation: string, title?: string): Link | undefined {
  const all = links(node);
  return all.find((l) => l.rel === relation) ?? (title === undefined ? undefined : all.find((l) => l.title === title));
}

/** Links as refs with their display names. */
export function refsOf(node: XNode | undefined): Ref[] {
  return links(node)
    .filter((l) => l.href !== '')
    .map((l) => ({ ref: l.href, name: l.title }));
}

export interface CategoryNode extends Category {
  /** The scheme's last path segment: `genres`, `title_formats`, `queue_availability` … */
  schemeName: string;
  node: XNode;
}

export function categories(node: XNode | undefined, name = 'category'): CategoryNode[] {
  return kids(node, name).map((c) => {
    const scheme = attr(c, 'scheme') ?? '';
    return {
      scheme,
      term: attr(c, 'term') ?? '',
      label: attr(c, 'label') ?? attr(c, 'term') ?? '',
      schemeName: scheme.replace(/\/+$/, '').split('/').pop() ?? '',
      node: c,
    };
  });
}

export function termsIn(node: XNode | undefined, schemeName: string): string[] {
  return categories(node)
    .filter((c) => c.schemeName === schemeName)
    .map((c) => c.term);
}

/** A paged list's pager; `total` defaults to the items present. */
export function pageOf<T>(node: XNode, items: T[]): Page<T> {
  return {
    items,
    total: num(text(node, 'number_of_results')) ?? items.length,
    start: num(text(node, 'start_index')) ?? 0,
    perPage: num(text(node, 'results_per_page')) ?? items.length,
  };
}

// ---- small resources -------------------------------------------------------------------------

/** `autocomplete` → the suggested titles' short names. */
export function parseAutocomplete(body: string): string[] {
  const root = parseRoot(body, 'autocomplete');
  return kids(root, 'autocomplete_item')
    .map((i) => attr(child(i, 'title'), 'short') ?? text(i, 'title') ?? '')
    .filter((s) => s !== '');
}

/** `categories` → `category_item`*. */
export function parseCategories(body: string): Category[] {
  return categories(parseRoot(body, 'categories'), 'category_item').map(({ scheme, term, label }) => ({
    scheme,
    term,
    label,
  }));
}

export interface UserWithLinks {
  user: User;
  /** The user's own URL (`{base}/users/UID`), when known. */
  href: string | null;
  /** The user's links by title (`queues`, `rental history`, `ratings` …). */
  links: Record<string, string>;
}

export function userFromNode(node: XNode, href: string | null = null): UserWithLinks {
  const user: User = {
    id: text(node, 'user_id') ?? '',
    firstName: text(node, 'first_name') ?? '',
    lastName: text(node, 'last_name') ?? '',
    nickname: text(node, 'nickname') ?? '',
    canInstantWatch: (text(node, 'can_instant_watch') ?? '').trim().toLowerCase() === 'true',
    preferredFormats: termsIn(child(node, 'preferred_formats'), 'title_formats'),
  };
  if (!user.id) throw badResponse('user without user_id');
  const byTitle = Object.fromEntries(links(node).map((l) => [l.title, l.href]));
  return { user, href, links: byTitle };
}

/** `user`, or `/users/current`'s `resource` with the user inlined (`expand=user`). */
export function parseUser(body: string): UserWithLinks {
  const name = rootName(body);
  if (name === 'resource') {
    const link = findLink(parseRoot(body, 'resource'), rel.userCurrent);
    const inlined = child(link?.node, 'user');
    if (!link || !inlined) throw badResponse('current user not inlined');
    return userFromNode(inlined, link.href || null);
  }
  return userFromNode(parseRoot(body, 'user'));
}

/** `/users/current` without expansion: the link to follow. */
export function parseCurrentUserLink(body: string): string {
  const link = findLink(parseRoot(body, 'resource'), rel.userCurrent);
  if (!link?.href) throw badResponse('no current user link');
  return link.href;
}

// ---- status ----------------------------------------------------------------------------------

/** A `status` element: every write's answer and every error's body. */
export interface Status {
  statusCode: number;
  subCode: number | null;
  message: string;
  /** The resource's new etag (queue writes), else null. */
  etag: string | null;
  /** Refs of what was created: the ids of created queue items, the hrefs of created links. */
  createdRefs: string[];
  /** The raw `resources_created` element, for mappers of what was created (queue items, ratings). */
  created: XNode | undefined;
  failedTitleRefs: string[];
  alreadyInQueue: string[];
}

function refList(node: XNode | undefined): string[] {
  if (!node) return [];
  const out = links(node).map((l) => l.href);
  for (const [k, v] of Object.entries(node)) {
    if (k === 'link' || k.startsWith('@') || k === '#text') continue;
    for (const n of Array.isArray(v) ? v : [v]) {
      const id = typeof n === 'string' ? n : text(asNode(n), 'id');
      if (id) out.push(id);
    }
  }
  return out.filter((r) => r !== '');
}

/** Parses a status body; `headers` supplies the etag when the body has none (an unquoted value). */
export function parseStatus(body: string, headers: Record<string, string> = {}): Status {
  const root = parseRoot(body, 'status');
  const created = child(root, 'resources_created');
  return {
    statusCode: num(text(root, 'status_code')) ?? 0,
    subCode: num(text(root, 'sub_code')),
    message: text(root, 'message') ?? '',
    etag: text(root, 'etag') ?? etagFromHeader(headers.etag),
    createdRefs: refList(created),
    created,
    failedTitleRefs: refList(child(root, 'failed_title_refs')),
    alreadyInQueue: refList(child(root, 'already_in_queue')),
  };
}

/** `"12"` or `W/"12"` → `12`. */
export function etagFromHeader(value: string | undefined): string | null {
  if (!value) return null;
  return value
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
}
