import { ApiRequestError } from '../../client/errors';

/**
 * Which form field a server's 400 is about. The spec's Error object has no field name, so
 * we look for a parameter name in the description; the one mentioned first wins
 * ("publication_date_start is after publication_date_end" concerns the start).
 */
export function fieldOfError(description: string, paramNames: readonly string[]): string | undefined {
  let best: { name: string; index: number } | undefined;
  for (const name of paramNames) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Underscores count as word characters, so `publication_date` never matches inside `publication_date_start`.
    const match = new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`).exec(description);
    if (match && (!best || match.index < best.index || (match.index === best.index && name.length > best.name.length))) {
      best = { name, index: match.index };
    }
  }
  return best?.name;
}

/** The server's 400 description, attached to the field it names when that field was sent. */
export function serverFieldError(
  error: unknown,
  formNames: readonly string[],
  sentNames: readonly string[],
): { field: string | undefined; description: string } | undefined {
  if (!(error instanceof ApiRequestError) || error.status !== 400) return undefined;
  const description = error.apiError?.errorDescription ?? error.message;
  const candidates = formNames.filter((name) => sentNames.includes(name));
  return { field: fieldOfError(description, candidates), description };
}
