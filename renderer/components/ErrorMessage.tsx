import type { AppError } from '../../shared/models.ts';
import { describeError } from './error-words.ts';

/**
 * An error in words a person can act on, with a Try again or Sign in button when that helps.
 * `role="alert"` so it is announced when it appears.
 */
export function ErrorMessage({
  error,
  onRetry,
  onSignIn,
  compact = false,
}: {
  error: AppError;
  onRetry?: () => void;
  onSignIn?: () => void;
  compact?: boolean;
}) {
  const words = describeError(error);
  return (
    <div className={compact ? 'error-message compact' : 'error-message'} role="alert">
      <p className="error-headline">{words.headline}</p>
      <p className="error-advice">{words.advice}</p>
      {words.action === 'retry' && onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      )}
      {words.action === 'sign-in' && onSignIn && (
        <button type="button" className="button primary" onClick={onSignIn}>
          Sign in again
        </button>
      )}
    </div>
  );
}
