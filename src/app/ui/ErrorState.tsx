import { ApiRequestError } from '../../client/errors';
import { errorMessage } from './error-message';

/**
 * A failed request: what happened and, since it may be passing, a way to try again — except
 * for a refused token, which only a change to config.json (and a reload) can mend.
 */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { title, detail } = errorMessage(error);
  const retry = error instanceof ApiRequestError && error.status === 401 ? undefined : onRetry;
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
