import '../styles/catalog.css';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Category } from '../../shared/models.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { LiveRegion } from '../components/LiveRegion.tsx';
import { SegmentedControl, type Segment } from '../components/SegmentedControl.tsx';
import { countOf } from '../words.ts';
import { Loading, SkeletonGrid, SkeletonLines } from '../components/Skeleton.tsx';
import { useMore } from '../components/catalog/useMore.ts';
import { TitleGrid } from '../components/catalog/TitleGrid.tsx';
import { appErrorOf } from '../queries/call.ts';
import { catalogQueries, titlesOf, type BrowseFilter } from '../queries/catalog.ts';
import { useConnectivity } from '../queries/status.ts';
import { usePreferences } from '../queries/preferences.ts';
import { useNavigation } from '../router.ts';

type TypeFilter = 'all' | 'movie' | 'series';
const TYPE_CHOICES: Segment<TypeFilter>[] = [
  { value: 'all', label: 'All' },
  { value: 'movie', label: 'Movies' },
  { value: 'series', label: 'Series' },
];

/** Browse: the genres on top, then the chosen genre's titles as posters, filtered by type and "Available now". */
export function BrowseScreen() {
  const nav = useNavigation();
  const genres = useQuery(catalogQueries.genres());
  const [type, setType] = useState<TypeFilter>('all');
  const [availableNow, setAvailableNow] = useState(false);
  const asked = nav.location.screen.name === 'browse' ? nav.location.screen.genre : undefined;
  const genre = asked ?? genres.data?.[0]?.term;
  return (
    <section className="screen browse-screen" aria-labelledby="screen-heading">
      <h1 id="screen-heading" className="screen-title">
        Browse
      </h1>
      {genres.isPending ? (
        <SkeletonLines lines={1} />
      ) : genres.isError ? (
        <ErrorMessage error={appErrorOf(genres.error)} onRetry={() => void genres.refetch()} />
      ) : (
        <GenreChips genres={genres.data} current={genre} onPick={(term) => nav.go({ name: 'browse', genre: term })} />
      )}
      {genre && (
        <>
          <div className="browse-bar">
            <h2 className="group-title">{genre}</h2>
            <SegmentedControl label="Type" segments={TYPE_CHOICES} value={type} onChange={setType} />
            <label className="toggle">
              <input type="checkbox" checked={availableNow} onChange={(e) => setAvailableNow(e.target.checked)} />
              Available now
            </label>
          </div>
          <GenreTitles
            filter={{ genre, ...(type !== 'all' ? { type } : {}), ...(availableNow ? { availableNow } : {}) }}
          />
        </>
      )}
    </section>
  );
}

function GenreChips({
  genres,
  current,
  onPick,
}: {
  genres: Category[];
  current: string | undefined;
  onPick: (term: string) => void;
}) {
  return (
    <nav className="genre-chips" aria-label="Genres">
      <ul className="chips">
        {genres.map((g) => (
          <li key={g.term}>
            <button type="button" className="chip" aria-pressed={g.term === current} onClick={() => onPick(g.term)}>
              {g.label}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function GenreTitles({ filter }: { filter: BrowseFilter }) {
  const { pageSize } = usePreferences();
  const titles = useInfiniteQuery(catalogQueries.browse(filter, pageSize));
  const more = useMore(titles);
  const { online } = useConnectivity();
  // Offline, another genre's posters would stand for this one until its request fails: show it loading.
  const stale = titles.isPlaceholderData && !online;
  if (titles.isPending || stale) {
    return (
      <Loading label={`Loading ${filter.genre}…`}>
        <SkeletonGrid count={18} />
      </Loading>
    );
  }
  if (titles.isError && !titles.data)
    return <ErrorMessage error={appErrorOf(titles.error)} onRetry={() => void titles.refetch()} />;
  const total = titles.data.pages[0]?.total ?? 0;
  return (
    <div className="browse-results" aria-busy={titles.isPlaceholderData}>
      <LiveRegion>{titles.isPlaceholderData ? 'Loading…' : countOf(total, 'title')}</LiveRegion>
      {total === 0 && !titles.isPlaceholderData ? (
        <p className="empty-state">
          Nothing in {filter.genre} matches these filters. Try All or switch off “Available now”.
        </p>
      ) : (
        <TitleGrid titles={titlesOf(titles.data)} label={`${filter.genre} titles`} more={more} />
      )}
      {titles.isFetchNextPageError && <ErrorMessage compact error={appErrorOf(titles.error)} onRetry={more.loadMore} />}
    </div>
  );
}
