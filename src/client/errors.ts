import type { ApiError } from '../formats/error';

/**
 * The three ways a request can fail, kept apart because the app shows each differently:
 * the server answered with an error status, the request never got an answer, or the
 * answer was not what the spec promises.
 */

/** The server answered with a non-200 status; `apiError` is its Error object when it sent one. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  constructor(
    readonly status: number,
    readonly url: string,
    readonly apiError: ApiError | undefined,
  ) {
    super(apiError?.errorDescription || `The server answered ${status}${apiError ? ` ${apiError.statusMessage}` : ''}.`);
  }
}

/** No answer at all: offline, DNS, CORS refusal, connection reset. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(`Could not reach the server at ${new URL(url).host}.`, options);
  }
}

/** A 200 whose body or headers do not match the spec, with what was wrong. */
export class InvalidResponseError extends Error {
  override readonly name = 'InvalidResponseError';
  constructor(
    readonly url: string,
    readonly problem: string,
  ) {
    super(`The server sent a response this app cannot read: ${problem}`);
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** Whether trying again could help: not for an error status or a malformed answer. */
export function isTransient(error: unknown): boolean {
  return !(error instanceof ApiRequestError || error instanceof InvalidResponseError);
}
