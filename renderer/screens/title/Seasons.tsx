import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type KeyboardEvent } from 'react';
import type { Ref } from '../../../shared/models.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { SkeletonRows } from '../../components/Skeleton.tsx';
import { appErrorOf } from '../../queries/call.ts';
import { catalogQueries } from '../../queries/catalog.ts';
import { useNavigation } from '../../router.ts';

/** "Harbor Lights: Season 1" → "Season 1" under the series' own name. */
function withoutPrefix(name: string, prefix: string): string {
  return name.startsWith(`${prefix}: `) ? name.slice(prefix.length + 2) : name;
}

/**
 * A series' seasons as tabs (arrow keys move between them, WAI-ARIA tabs); the chosen season's
 * episodes load with that season's one expanded request.
 */
export function Seasons({ seasons, seriesName }: { seasons: Ref[]; seriesName: string }) {
  const [current, setCurrent] = useState(0);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const pick = (i: number) => {
    setCurrent(i);
    tabs.current[i]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const last = seasons.length - 1;
    const next =
      e.key === 'ArrowRight'
        ? current === last
          ? 0
          : current + 1
        : e.key === 'ArrowLeft'
          ? current === 0
            ? last
            : current - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    pick(next);
  };
  const season = seasons[current];
  return (
    <section className="title-section" aria-labelledby="seasons-heading">
      <h3 id="seasons-heading">Seasons</h3>
      <div className="tabs" role="tablist" aria-label="Seasons">
        {seasons.map((s, i) => (
          <button
            key={s.ref}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`season-tab-${i}`}
            aria-selected={i === current}
            aria-controls="season-panel"
            tabIndex={i === current ? 0 : -1}
            onClick={() => setCurrent(i)}
            onKeyDown={onKeyDown}
          >
            {withoutPrefix(s.name, seriesName)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="season-panel" aria-labelledby={`season-tab-${current}`} tabIndex={0}>
        {season && <Episodes season={season} />}
      </div>
    </section>
  );
}

function Episodes({ season }: { season: Ref }) {
  const nav = useNavigation();
  const client = useQueryClient();
  const detail = useQuery(catalogQueries.title(season.ref, client));
  if (detail.isPending) return <SkeletonRows count={6} />;
  if (detail.isError)
    return <ErrorMessage compact error={appErrorOf(detail.error)} onRetry={() => void detail.refetch()} />;
  if (!detail.data.episodes.length) return <p className="muted">No episodes listed for this season.</p>;
  return (
    <ol className="episodes">
      {detail.data.episodes.map((e) => (
        <li key={e.ref}>
          <button type="button" className="episode" onClick={() => nav.openTitle(e.ref)}>
            {withoutPrefix(e.name, season.name)}
          </button>
        </li>
      ))}
    </ol>
  );
}
