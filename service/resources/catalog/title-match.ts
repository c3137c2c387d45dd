import type { FastifyInstance } from 'fastify';
import { QUEUE_LIMIT, titleIdFromRef } from '../../../shared/protocol/index.ts';
import { looseSearchTermOf, searchTermOf, titleKey } from '../../../shared/protocol/title-key.ts';
import type { ServiceContext } from '../../context.ts';
import { ApiError } from '../../model/api-error.ts';
import type { Params } from '../../http/params.ts';
import { represent } from '../../http/represent.ts';
import { resource } from '../../http/route.ts';
import type { TitleRecord } from '../../model/title.ts';
import { getTitles } from '../../store/catalog/read.ts';
import { el } from '../../xml/node.ts';
import { renderTitles } from '../shared/title-list.ts';

/** Entries one request may carry: a whole queue's worth. */
export const MATCH_ENTRIES_MAX = QUEUE_LIMIT;
const CANDIDATES_DEFAULT = 5;
const CANDIDATES_MAX = 25;
/** How many of the search's titles per entry are ordered before the first `max_results` are kept. */
const SEARCHED = 50;

interface MatchEntry {
  n: number;
  title: string;
  year: number | null;
  refId: number | null;
}

/**
 * Extension: `POST /catalog/titles/match` looks up many titles by name in one request (an
 * importer's list), so a client need not search once per entry. Per entry `n`: `title[n]`
 * (required), `year[n]` and `title_ref[n]` (optional). The candidates of an entry are the title
 * `title_ref[n]` names, then the titles the catalog search finds for the name (shared
 * protocol/title-key.ts's words; a looser search too when none has the name), ordered: the same name (title-key.ts's key) first, then the
 * closest year when one is given, then the search's own order; the first `max_results` (5, at most
 * 25) are answered, each a `catalog_title` as in the search (`expand` applies). Deciding which
 * candidate an entry means is the client's.
 */
export function registerTitleMatch(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/catalog/titles/match', {
    POST: {
      auth: 'signed',
      handler: async (req, reply, ctx) => {
        const entries = matchEntries(ctx.params);
        const max = candidatesWanted(ctx.params);
        const found = await Promise.all(entries.map((e) => candidateIds(svc, e)));
        const titles = await getTitles(svc.db, [...new Set(found.flat())]);
        const ordered = entries.map((e, i) => rank(e, found[i]!, titles).slice(0, max));
        const shown = [...new Set(ordered.flat())].map((id) => titles.get(id)!);
        const elements = new Map((await renderTitles(svc, ctx, shown)).map((element, i) => [shown[i]!.id, element]));
        return represent(
          req,
          reply,
          el(
            'title_matches',
            null,
            entries.map((e, i) =>
              el(
                'title_match',
                { n: e.n, number_of_results: ordered[i]!.length },
                ordered[i]!.map((id) => elements.get(id)!),
              ),
            ),
          ),
        );
      },
    },
  });
}

/** The entries in the order of their `n`; 400 when none, too many, or a year or n twice. */
function matchEntries(params: Params): MatchEntry[] {
  const byN = new Map<number, Partial<MatchEntry> & { n: number }>();
  for (const [key, value] of params.all()) {
    const m = /^(title|year|title_ref)\[(\d{1,6})\]$/.exec(key);
    if (!m) continue;
    const n = Number(m[2]);
    const entry = byN.get(n) ?? { n };
    byN.set(n, entry);
    if (m[1] === 'title') entry.title = value;
    else if (m[1] === 'year') entry.year = yearOf(value);
    else entry.refId = value.trim() === '' ? null : titleIdFromRef(value.trim());
  }
  const entries = [...byN.values()].sort((a, b) => a.n - b.n);
  if (entries.length === 0 || entries.some((e) => e.title === undefined || e.title.trim() === ''))
    throw ApiError.required('title');
  if (entries.length > MATCH_ENTRIES_MAX) throw ApiError.invalid('title');
  return entries.map((e) => ({ n: e.n, title: e.title!, year: e.year ?? null, refId: e.refId ?? null }));
}

function yearOf(value: string): number | null {
  if (value.trim() === '') return null;
  if (!/^\d{4}$/.test(value.trim())) throw ApiError.invalid('year');
  return Number(value);
}

function candidatesWanted(params: Params): number {
  const raw = params.get('max_results');
  if (raw === undefined || raw.trim() === '') return CANDIDATES_DEFAULT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw ApiError.invalid('max_results');
  return Math.min(n, CANDIDATES_MAX);
}

/**
 * The ref's title first (when it names one), then the search's first titles for the name; when
 * none of those has the name, a loose search's too (a name written without its apostrophe).
 */
async function candidateIds(svc: ServiceContext, entry: MatchEntry): Promise<number[]> {
  const term = searchTermOf(entry.title);
  let searched = term === '' ? [] : (await svc.search.titles(term, 0, SEARCHED)).ids;
  const loose = looseSearchTermOf(entry.title);
  if (loose !== null && !(await hasName(svc, searched, titleKey(entry.title)))) {
    const more = (await svc.search.titles(loose, 0, SEARCHED)).ids;
    searched = [...new Set([...searched, ...more])];
  }
  return entry.refId === null ? searched : [entry.refId, ...searched.filter((id) => id !== entry.refId)];
}

async function hasName(svc: ServiceContext, ids: number[], key: string): Promise<boolean> {
  return [...(await getTitles(svc.db, ids)).values()].some((t) => titleKey(t.title) === key);
}

/** Same name first, then the closest year, then the search's order (stable); unknown ids dropped. */
function rank(entry: MatchEntry, ids: number[], titles: Map<number, TitleRecord>): number[] {
  const key = titleKey(entry.title);
  const score = (t: TitleRecord, i: number) => {
    if (t.id === entry.refId) return [-1, 0, i];
    const sameName = titleKey(t.title) === key ? 0 : 1;
    const distance = entry.year === null || t.release_year === null ? 0 : Math.abs(t.release_year - entry.year);
    return [sameName, distance, i];
  };
  return ids
    .map((id, i) => ({ t: titles.get(id), i }))
    .filter((x): x is { t: TitleRecord; i: number } => x.t !== undefined)
    .map((x) => ({ id: x.t.id, s: score(x.t, x.i) }))
    .sort((a, b) => a.s[0]! - b.s[0]! || a.s[1]! - b.s[1]! || a.s[2]! - b.s[2]!)
    .map((x) => x.id);
}
