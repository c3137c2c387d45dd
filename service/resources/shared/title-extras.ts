import type { ExpandName } from '../../../shared/protocol/index.ts';
import { getCredits, getDetails, getMemberIds, getSimilarIds, getTitles } from '../../store/catalog/read.ts';
import type { TitleRecord } from '../../model/title.ts';
import type { Db } from '../../store/db.ts';
import type { TitleExtras } from '../../xml/title.ts';

/**
 * Loads, for a page of titles at once, what their representations need beyond their own rows:
 * parent series/season (always, for links) and whatever `expand` names. A fixed number of queries
 * per page, never one per title.
 */
export async function loadTitleExtras(
  db: Db,
  titles: readonly TitleRecord[],
  expand: ReadonlySet<ExpandName>,
): Promise<Map<number, TitleExtras>> {
  const out = new Map<number, TitleExtras>(titles.map((t) => [t.id, {}]));
  const ids = titles.map((t) => t.id);
  const want = (n: ExpandName) => expand.has(n);

  const parentIds = new Set<number>();
  for (const t of titles) {
    if (t.series_id !== null && t.type !== 'series') parentIds.add(t.series_id);
    if ((t.type === 'program' || t.type === 'disc') && t.parent_id !== null) parentIds.add(t.parent_id);
  }
  const needsDetails =
    want('screen formats') || want('languages and audio') || want('awards') || want('bonus materials');
  const [parents, details, cast, directors, similarIds, seasonIds, episodeIds, discIds] = await Promise.all([
    getTitles(db, [...parentIds]),
    needsDetails ? getDetails(db, ids) : undefined,
    want('cast') ? getCredits(db, ids, 'cast') : undefined,
    want('directors') ? getCredits(db, ids, 'director') : undefined,
    want('similars') ? getSimilarIds(db, ids) : undefined,
    want('seasons')
      ? getMemberIds(
          db,
          ids.filter((_, i) => titles[i]!.type === 'series'),
          'season',
        )
      : undefined,
    want('episodes') ? getMemberIds(db, ids, 'program') : undefined,
    want('discs') ? getMemberIds(db, ids, 'disc') : undefined,
  ]);
  const bonusIds = new Map<number, number[]>();
  if (want('bonus materials') && details) {
    for (const [id, d] of details) bonusIds.set(id, JSON.parse(d.bonus_materials) as number[]);
  }
  const related = await getTitles(
    db,
    [similarIds, seasonIds, episodeIds, discIds, bonusIds].flatMap((m) => (m ? [...m.values()].flat() : [])),
  );
  const resolve = (list: number[] | undefined) =>
    (list ?? []).map((id) => related.get(id)).filter((t): t is TitleRecord => t !== undefined);

  for (const t of titles) {
    const x = out.get(t.id)!;
    if (t.series_id !== null && t.type !== 'series') x.series = parents.get(t.series_id);
    if (t.parent_id !== null && t.type === 'program') x.season = parents.get(t.parent_id);
    if (t.parent_id !== null && t.type === 'disc' && parents.get(t.parent_id)?.type === 'season')
      x.season = parents.get(t.parent_id);
    if (details) x.details = details.get(t.id);
    if (cast) x.cast = cast.get(t.id) ?? [];
    if (directors) x.directors = directors.get(t.id) ?? [];
    if (similarIds) x.similars = resolve(similarIds.get(t.id));
    if (seasonIds) x.seasons = resolve(seasonIds.get(t.id));
    if (episodeIds) x.episodes = resolve(episodeIds.get(t.id));
    if (discIds) x.discs = resolve(discIds.get(t.id));
    if (want('bonus materials')) x.bonus = resolve(bonusIds.get(t.id));
  }
  return out;
}
