import '../styles/catalog.css';
import { useQuery } from '@tanstack/react-query';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { countOf } from '../words.ts';
import { Loading, SkeletonGrid, SkeletonLines } from '../components/Skeleton.tsx';
import { TitleGrid } from '../components/catalog/TitleGrid.tsx';
import { appErrorOf } from '../queries/call.ts';
import { catalogQueries } from '../queries/catalog.ts';

/** A person in the detail panel: name, bio, and their titles as a grid of posters. */
export function PersonPanel({ personRef }: { personRef: string }) {
  const person = useQuery(catalogQueries.person(personRef));
  if (person.isPending) {
    return (
      <Loading label="Loading the person…">
        <SkeletonLines lines={4} />
        <SkeletonGrid count={6} />
      </Loading>
    );
  }
  if (person.isError) return <ErrorMessage error={appErrorOf(person.error)} onRetry={() => void person.refetch()} />;
  const { name, bio, filmography } = person.data;
  return (
    <article className="person-detail" aria-labelledby="person-heading">
      <h2 id="person-heading" className="title-name">
        {name}
      </h2>
      {bio ? <p className="person-bio">{bio}</p> : <p className="muted">No biography yet.</p>}
      <section className="title-section" aria-labelledby="filmography-heading">
        <h3 id="filmography-heading">
          Filmography <span className="group-count">{countOf(filmography.length, 'title')}</span>
        </h3>
        {filmography.length ? (
          <TitleGrid titles={filmography} label={`Titles with ${name}`} />
        ) : (
          <p className="muted">No titles listed.</p>
        )}
      </section>
    </article>
  );
}
