import { errorMessage } from './error-message';

/** A failed request: what happened and, since it may be passing, a way to try again. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { title, detail } = errorMessage(error);
  return (
    <div className="error-state" role="alert">
      <p className="error-state__title">{title}</p>
      <p>{detail}</p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
