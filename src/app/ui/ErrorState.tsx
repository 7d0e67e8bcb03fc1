import { isRefusal } from '../../client/errors';
import { errorMessage } from './error-message';

/**
 * A failed request: what happened and, where it may be passing, a way to try again — not for
 * a refusal (a 4xx: the request as it stands, or the token, is refused again), which only a
 * changed search or config.json can mend.
 */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { title, detail } = errorMessage(error);
  const retry = isRefusal(error) ? undefined : onRetry;
  return (
    <div className="error-state" role="alert">
      <p className="error-state__title">{title}</p>
      <p>{detail}</p>
      {retry && (
        <button type="button" className="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}
