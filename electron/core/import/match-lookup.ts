import type { ImportCandidate, ImportEntry } from '../../../shared/import-export.ts';
import { looseSearchTermOf, searchTermOf, titleKey } from '../../../shared/protocol/title-key.ts';
import { isUnsupported } from '../client/index.ts';
import type { Transport } from '../types.ts';
import { kids, parseRoot, type XNode } from '../xml/index.ts';
import { titleDocument } from '../xml/index.ts';
import { candidateOf } from './placement.ts';
import { inParallel } from '../../../shared/pure/in-parallel.ts';

/**
 * The catalog's candidates for entries of a list, two ways: the service's title-match extension
 * (POST /catalog/titles/match, docs/API.md: up to 100 entries a request here), or one title search
 * per entry (any service), paced by the transport like every request. The extension is tried
 * unless this service is known to lack it; a 404 without sub_code, a 405 or a 501 means it has
 * none, remembered per service base URL for the session.
 */

/** Entries per extension request (the service takes a queue's worth; smaller answers keep progress moving). */
export const MATCH_BATCH = 100;
/** Candidates asked for per entry: the extension orders same-name titles first, a search does not. */
const EXTENSION_CANDIDATES = 5;
const SEARCH_CANDIDATES = 20;
/** Searches in flight at once in the fallback (the pacer keeps them within the quota). */
const SEARCH_WORKERS = 6;

export type Lookup = { entry: LookupEntry; candidates: ImportCandidate[] };
export type LookupEntry = Pick<ImportEntry, 'title' | 'year' | 'ref'>;

export interface LookupDeps {
  transport: Transport;
  baseUrl: () => string;
  now: () => number;
}

export class CatalogLookup {
  /** Whether the service at a base URL has the match extension (absent: not known yet). */
  readonly #extension = new Map<string, boolean>();

  constructor(private readonly deps: LookupDeps) {}

  /** Candidates for each entry, in order; `done(n)` after each n entries looked up. */
  async candidates(
    entries: readonly LookupEntry[],
    done: (n: number) => void,
    signal: AbortSignal,
  ): Promise<ImportCandidate[][]> {
    const base = this.#base();
    const out: ImportCandidate[][] = [];
    let at = 0;
    while (at < entries.length && this.#extension.get(base) !== false) {
      const batch = entries.slice(at, at + MATCH_BATCH);
      const found = await this.#viaExtension(batch, signal);
      if (!found) break;
      out.push(...found);
      at += batch.length;
      done(batch.length);
    }
    const rest = entries.slice(at);
    const searched = await inParallel(rest, SEARCH_WORKERS, async (e) => {
      const found = await this.#viaSearch(e, signal);
      done(1);
      return found;
    });
    return [...out, ...searched];
  }

  /** A title search the person types (the review's "Search by hand"): candidates with where they can go. */
  async search(term: string, signal?: AbortSignal): Promise<ImportCandidate[]> {
    return this.#searchTitles(term, SEARCH_CANDIDATES, signal);
  }

  /** One title by its ref, with where it can go (a ref the review was given but never looked up). */
  async title(ref: string): Promise<ImportCandidate> {
    const res = await this.deps.transport.request({ url: ref, query: { expand: 'formats' }, level: 'signed' });
    return this.#candidate(parseRoot(res.body, 'catalog_title'));
  }

  /** One extension request; null when the service has no such extension (then remembered). */
  async #viaExtension(batch: readonly LookupEntry[], signal: AbortSignal): Promise<ImportCandidate[][] | null> {
    const form: Record<string, string> = { max_results: String(EXTENSION_CANDIDATES), expand: 'formats' };
    batch.forEach((e, i) => {
      form[`title[${i + 1}]`] = e.title;
      if (e.year !== null) form[`year[${i + 1}]`] = String(e.year);
      if (e.ref !== null) form[`title_ref[${i + 1}]`] = e.ref;
    });
    try {
      const res = await this.deps.transport.request({
        method: 'POST',
        url: `${this.#base()}/catalog/titles/match`,
        form,
        level: 'signed',
        signal,
      });
      this.#extension.set(this.#base(), true);
      const byN = new Map(
        kids(parseRoot(res.body, 'title_matches'), 'title_match').map((m) => [
          Number(m['@n']),
          kids(m, 'catalog_title'),
        ]),
      );
      return batch.map((_, i) => (byN.get(i + 1) ?? []).map((node) => this.#candidate(node)));
    } catch (error) {
      if (!isUnsupported(error)) throw error;
      this.#extension.set(this.#base(), false);
      return null;
    }
  }

  /**
   * The search for an entry's name, and a looser one when no title found has the name (a name
   * written without its apostrophe); its own ref looked up too when the searches missed it.
   */
  async #viaSearch(entry: LookupEntry, signal: AbortSignal): Promise<ImportCandidate[]> {
    const term = searchTermOf(entry.title);
    let found = term === '' ? [] : await this.#searchTitles(term, SEARCH_CANDIDATES, signal);
    const loose = looseSearchTermOf(entry.title);
    const key = titleKey(entry.title);
    if (loose !== null && !found.some((c) => titleKey(c.title) === key)) {
      const more = await this.#searchTitles(loose, SEARCH_CANDIDATES, signal);
      found = [...found, ...more.filter((c) => !found.some((f) => f.ref === c.ref))];
    }
    if (entry.ref === null || found.some((c) => c.ref === entry.ref) || !entry.ref.startsWith(`${this.#base()}/`))
      return found;
    try {
      return [await this.title(entry.ref), ...found];
    } catch {
      return found; // a ref this service does not know: the name decides
    }
  }

  async #searchTitles(term: string, max: number, signal?: AbortSignal): Promise<ImportCandidate[]> {
    const res = await this.deps.transport.request({
      url: `${this.#base()}/catalog/titles`,
      query: { term, max_results: String(max), expand: 'formats' },
      level: 'signed',
      ...(signal ? { signal } : {}),
    });
    return kids(parseRoot(res.body, 'catalog_titles'), 'catalog_title').map((node) => this.#candidate(node));
  }

  #candidate(node: XNode): ImportCandidate {
    const doc = titleDocument(node);
    return candidateOf(doc, doc.availability, this.deps.now());
  }

  #base(): string {
    return this.deps.baseUrl().replace(/\/+$/, '');
  }
}
