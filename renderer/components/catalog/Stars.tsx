import type { UserRating } from '../../../shared/models.ts';
import { ratingNumber } from './format.ts';

const STARS = [1, 2, 3, 4, 5] as const;

/** Five stars filled to `value` (to the tenth), for averages and predictions; read as words. */
export function StarsShown({ value, label }: { value: number; label: string }) {
  const percent = Math.max(0, Math.min(100, (value / 5) * 100));
  return (
    <span className="stars-shown" role="img" aria-label={`${label}: ${ratingNumber(value)} out of 5`}>
      <span className="stars-track" aria-hidden="true">
        ★★★★★
      </span>
      <span className="stars-fill" aria-hidden="true" style={{ width: `${percent}%` }}>
        ★★★★★
      </span>
    </span>
  );
}

/**
 * The subscriber's own rating: five buttons ("Rate 4 stars"), the chosen one pressed; Clear and
 * Not interested beside them. Each press is one `ratings.set`.
 */
export function StarsInput({
  value,
  onRate,
  disabled = false,
}: {
  value: UserRating | null;
  onRate: (rating: UserRating | null) => void;
  disabled?: boolean;
}) {
  const stars = typeof value === 'number' ? value : 0;
  return (
    <div className="stars-input" role="group" aria-label="Your rating">
      {/* Their own box: hovering a star lights it and those before it; hovering the words beside lights none. */}
      <span className="stars-row">
        {STARS.map((n) => (
          <button
            key={n}
            type="button"
            className={n <= stars ? 'star filled' : 'star'}
            aria-label={`Rate ${n} ${n === 1 ? 'star' : 'stars'}`}
            aria-pressed={value === n}
            disabled={disabled}
            onClick={() => onRate(n)}
          >
            ★
          </button>
        ))}
      </span>
      <button
        type="button"
        className="link-button"
        aria-pressed={value === 'not_interested'}
        disabled={disabled}
        onClick={() => onRate(value === 'not_interested' ? null : 'not_interested')}
      >
        Not interested
      </button>
      {value !== null && (
        <button type="button" className="link-button" disabled={disabled} onClick={() => onRate(null)}>
          Clear rating
        </button>
      )}
    </div>
  );
}
