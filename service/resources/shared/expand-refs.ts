import { titleIdFromRef } from '../../../shared/protocol/index.ts';
import type { QueueKind } from '../../model/queue.ts';
import type { TitleRecord } from '../../model/title.ts';
import { getMemberIds, getTitles } from '../../store/catalog/read.ts';
import type { Db } from '../../store/db.ts';

/** One title to add, after series and disc sets are expanded; `title` undefined: unknown ref. */
export interface Candidate {
  ref: string;
  title: TitleRecord | undefined;
}

/**
 * Title refs → the titles to queue, in order: a series adds its seasons; in the disc queue a
 * movie or season with discs adds its discs (a series its seasons' discs).
 */
export async function expandRefs(db: Db, kind: QueueKind, refs: string[]): Promise<Candidate[]> {
  const ids = refs.map((r) => titleIdFromRef(r));
  const titles = await getTitles(
    db,
    ids.filter((id): id is number => id !== null),
  );
  const seriesIds = [...titles.values()].filter((t) => t.type === 'series').map((t) => t.id);
  const seasons = await getMemberIds(db, seriesIds, 'season');
  const discParents =
    kind === 'disc'
      ? [...titles.values()]
          .filter((t) => t.hasDiscs && t.type !== 'series')
          .map((t) => t.id)
          .concat([...seasons.values()].flat())
      : [];
  const discs = await getMemberIds(db, discParents, 'disc');
  const members = await getTitles(db, [...seasons.values(), ...discs.values()].flat());

  const out: Candidate[] = [];
  const expand = (ref: string, t: TitleRecord) => {
    const list = t.type === 'series' ? seasons.get(t.id) : kind === 'disc' ? discs.get(t.id) : undefined;
    if (!list || list.length === 0) {
      out.push({ ref, title: t });
      return;
    }
    for (const id of list) {
      const m = members.get(id);
      if (m) expand(ref, m);
    }
  };
  refs.forEach((ref, i) => {
    const id = ids[i];
    const t = id === null || id === undefined ? undefined : titles.get(id);
    if (t) expand(ref, t);
    else out.push({ ref, title: undefined });
  });
  return out;
}
