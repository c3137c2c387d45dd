import '../styles/catalog.css';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { LiveRegion } from '../components/LiveRegion.tsx';
import { countOf } from '../words.ts';
import { Loading, SkeletonGrid } from '../components/Skeleton.tsx';
import { PersonChips } from '../components/catalog/PersonChips.tsx';
import { SearchBox } from '../components/catalog/SearchBox.tsx';
import { useMore } from '../components/catalog/useMore.ts';
import { TitleGrid } from '../components/catalog/TitleGrid.tsx';
import { useDebounced } from '../components/catalog/useDebounced.ts';
import { appErrorOf } from '../queries/call.ts';
import { MAX_TERM_LENGTH, catalogQueries, normaliseTerm, titlesOf } from '../queries/catalog.ts';
import { usePreferences } from '../queries/preferences.ts';
import { useNavigation } from '../router.ts';

const RESULTS_DELAY_MS = 300;

/**
 * Search: the box with autocomplete, then People and Titles for the term, each with its count
 * (announced), titles a page at a time by scroll or "Show more".
 */
export function SearchScreen() {
  const { location, replace } = useNavigation();
  const asked = location.screen.name === 'search' ? location.screen.term : undefined;
  const [input, setInputState] = useState(asked ?? '');
  // What is in the box is the location's term: coming back to Search shows the same search.
  const setInput = useCallback(
    (text: string) => {
      setInputState(text);
      replace({ name: 'search', term: text });
    },
    [replace],
  );
  const [submitted, setSubmitted] = useState<string | null>(null);
  const typed = useDebounced(normaliseTerm(input), RESULTS_DELAY_MS);
  // Enter searches at once; typing searches once it settles.
  const term = submitted !== null && submitted === normaliseTerm(input) ? submitted : typed;
  const onSubmit = useCallback((text: string) => setSubmitted(normaliseTerm(text)), []);
  return (
    <section className="screen search-screen" aria-labelledby="screen-heading">
      <h1 id="screen-heading" className="screen-title">
        Search
      </h1>
      <SearchBox value={input} onChange={setInput} onSubmit={onSubmit} />
      <SearchResults term={term} />
    </section>
  );
}

function SearchResults({ term }: { term: string }) {
  if (!term)
    return <p className="muted search-hint">Find titles and people by name. Press / anywhere to come back here.</p>;
  if (term.length > MAX_TERM_LENGTH) {
    return (
      <p className="empty-state" role="status">
        That search is {term.length.toLocaleString()} characters long; Marquee can search at most {MAX_TERM_LENGTH}. Try
        a shorter word or two.
      </p>
    );
  }
  return <Results term={term} />;
}

function Results({ term }: { term: string }) {
  const { pageSize } = usePreferences();
  const titles = useInfiniteQuery(catalogQueries.search(term, pageSize));
  const people = useInfiniteQuery(catalogQueries.people(term, pageSize));
  const more = useMore(titles);

  if (titles.isPending) {
    return (
      <Loading label={`Searching for “${term}”…`}>
        <SkeletonGrid count={12} />
      </Loading>
    );
  }
  if (titles.isError && !titles.data)
    return <ErrorMessage error={appErrorOf(titles.error)} onRetry={() => void titles.refetch()} />;

  const titleTotal = titles.data.pages[0]?.total ?? 0;
  const peopleList = people.data?.pages.flatMap((p) => p.items) ?? [];
  const peopleTotal = people.data?.pages[0]?.total ?? 0;
  const shownTerm = titles.isPlaceholderData ? null : term;
  return (
    <div className="search-results" aria-busy={titles.isPlaceholderData}>
      <LiveRegion visible={false}>
        {shownTerm === null
          ? 'Searching…'
          : `${countOf(titleTotal, 'title')}${peopleTotal ? ` · ${countOf(peopleTotal, 'person', 'people')}` : ''}`}
      </LiveRegion>
      {peopleList.length > 0 && (
        <section className="result-group" aria-labelledby="people-heading">
          <h2 id="people-heading" className="group-title">
            People <span className="group-count">{peopleTotal.toLocaleString()}</span>
          </h2>
          <PersonChips people={peopleList} label="People" />
          {people.hasNextPage && (
            <button
              type="button"
              className="link-button"
              onClick={() => void people.fetchNextPage()}
              disabled={people.isFetchingNextPage}
            >
              More people
            </button>
          )}
        </section>
      )}
      {people.isError && appErrorOf(people.error).kind !== 'not_found' && (
        <ErrorMessage compact error={appErrorOf(people.error)} onRetry={() => void people.refetch()} />
      )}
      <section className="result-group" aria-labelledby="titles-heading">
        <h2 id="titles-heading" className="group-title">
          Titles <span className="group-count">{titleTotal.toLocaleString()}</span>
        </h2>
        {titleTotal === 0 && !titles.isPlaceholderData ? (
          <p className="empty-state">
            No titles match “{term}”. {term.includes(' ') ? 'Try fewer words.' : 'Try a shorter word.'}
          </p>
        ) : (
          <TitleGrid titles={titlesOf(titles.data)} label={`Titles matching ${term}`} more={more} />
        )}
        {titles.isFetchNextPageError && (
          <ErrorMessage compact error={appErrorOf(titles.error)} onRetry={more.loadMore} />
        )}
      </section>
    </div>
  );
}
