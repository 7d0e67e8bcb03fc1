import type { ApiError } from '../formats/error';

/**
 * The three ways a request can fail, kept apart because the app shows each differently:
 * the server answered with an error status, the request never got an answer, or the
 * answer was not what the spec promises.
 */

/**
 * The server answered with a non-200 status; `apiError` is its Error object when it sent one,
 * `excerpt` the start of whatever it sent, `retryAfterMs` the pause its Retry-After asks for.
 */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  constructor(
    readonly status: number,
    readonly url: string,
    readonly apiError: ApiError | undefined,
    readonly retryAfterMs?: number,
    readonly excerpt = '',
  ) {
    super(apiError?.errorDescription || `The server answered ${status}${apiError ? ` ${apiError.statusMessage}` : ''}.`);
  }
}

/**
 * Node's fetch failures that the same request meets again (a response head larger than it
 * reads, a URL or argument it refuses), unlike a refused, reset or dropped connection.
 */
const permanentFetchFailures = new Set(['UND_ERR_HEADERS_OVERFLOW', 'UND_ERR_INVALID_ARG', 'ERR_INVALID_URL', 'ERR_INVALID_ARG_TYPE']);

/**
 * No answer, or one cut off: offline, DNS, CORS refusal, connection reset (`phase` says
 * whether the head or the body was lost). `transient` when another try may go better.
 */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly transient: boolean;
  constructor(
    readonly url: string,
    options?: { cause?: unknown },
    readonly phase: 'head' | 'body' = 'head',
  ) {
    super(`Could not reach the server at ${new URL(url).host}.`, options);
    const code = (options?.cause as { cause?: { code?: unknown } } | undefined)?.cause?.code;
    this.transient = !(typeof code === 'string' && permanentFetchFailures.has(code));
  }
}

/** A body larger than the caller reads. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(
    readonly url: string,
    readonly maxBytes: number,
  ) {
    super(`The answer from ${url} is larger than ${maxBytes} bytes.`);
  }
}

/** A redirect the request does not follow: to another origin, or one too many. */
export class RedirectError extends Error {
  override readonly name = 'RedirectError';
  constructor(
    readonly url: string,
    readonly location: string,
    readonly reason: 'origin' | 'count',
  ) {
    super(`${url} redirects to ${location}, which this request does not follow (${reason}).`);
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

/** Whether a request ended because its `timeoutMs` ran out (http.ts). */
export function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'TimeoutError';
}

/** Whether trying again could help: not for an error status or a malformed answer. */
export function isTransient(error: unknown): boolean {
  return !(error instanceof ApiRequestError || error instanceof InvalidResponseError);
}

/**
 * The server refused the request as it stands (a 4xx other than a timeout or a rate limit):
 * the same request is refused again, so offering to try it again would promise what cannot
 * happen. A 401 is one too: only a change to the token mends it.
 */
export function isRefusal(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
}
