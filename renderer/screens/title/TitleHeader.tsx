import { useQuery } from '@tanstack/react-query';
import type { TitleDetail } from '../../../shared/models.ts';
import { BoxArt } from '../../components/catalog/BoxArt.tsx';
import { StarsInput, StarsShown } from '../../components/catalog/Stars.tsx';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { runtimeWords, typeWord, ratingNumber } from '../../components/catalog/format.ts';
import { appErrorOf } from '../../queries/call.ts';
import { titleQueries, useRate } from '../../queries/title.ts';
import { useNavigation } from '../../router.ts';

/** Art, name, year · runtime · rating · type, genres (each opens Browse), and the ratings. */
export function TitleHeader({ title, signedIn }: { title: TitleDetail; signedIn: boolean }) {
  const nav = useNavigation();
  const meta = [title.year, runtimeWords(title.runtimeSeconds), title.maturity, typeWord(title.type)].filter(
    (x) => x !== null && x !== '',
  );
  return (
    <header className="title-header">
      <BoxArt art={title.boxArt} size="large" alt={`Box art of ${title.title}`} className="title-art" />
      <div className="title-heading">
        <h2 id="title-heading" className="title-name">
          {title.title}
        </h2>
        <p className="title-meta">{meta.join(' · ')}</p>
        {title.genres.length > 0 && (
          <ul className="chips small" aria-label="Genres">
            {title.genres.map((g) => (
              <li key={g}>
                <button
                  type="button"
                  className="chip"
                  onClick={() => nav.go({ name: 'browse', genre: g })}
                  aria-label={`Browse ${g}`}
                >
                  {g}
                </button>
              </li>
            ))}
          </ul>
        )}
        <TitleRatings title={title} signedIn={signedIn} />
      </div>
    </header>
  );
}

function TitleRatings({ title, signedIn }: { title: TitleDetail; signedIn: boolean }) {
  const rating = useQuery(titleQueries.rating(title.ref, signedIn));
  const rate = useRate(title.ref);
  const predicted = rating.data?.predicted ?? null;
  return (
    <div className="title-ratings">
      {title.averageRating !== null && (
        <p className="rating-line">
          <StarsShown value={title.averageRating} label="Average rating" />
          <span className="rating-number">{ratingNumber(title.averageRating)} average</span>
        </p>
      )}
      {predicted !== null && (
        <p className="rating-line">
          <StarsShown value={predicted} label="Predicted for you" />
          <span className="rating-number">{ratingNumber(predicted)} predicted for you</span>
        </p>
      )}
      {signedIn && (
        <StarsInput
          value={rate.isPending ? (rate.variables ?? null) : (rating.data?.userRating ?? null)}
          onRate={(r) => rate.mutate(r)}
          disabled={rating.isPending}
        />
      )}
      {rate.isError && <ErrorMessage compact error={appErrorOf(rate.error)} />}
    </div>
  );
}
