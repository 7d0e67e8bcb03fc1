import { ApiRequestError, BodyTooLargeError, InvalidResponseError, NetworkError, RedirectError } from '../../client/errors';
import { getText, maxRedirects } from '../../client/http';
import { nextLink, PagingError } from '../../client/pages';
import { readTotal } from '../../client/responses';
import { withRetry, type RetryPolicy } from '../../client/retry';
import { JsonRecordWatch, megabytes, RecordTooLarge, XmlRecordWatch } from '../import/record-size';

/** One page request of a harvest, through the client (src/client/http.ts): its limits, its retries, and what a failure means to the operator. */

/** A harvest cannot go on; the message says why in the operator's terms. */
export class HarvestError extends Error {
  override name = 'HarvestError';
}

/** The source answered with a status that retrying will not change (a 400, a 404). */
export class SourceRefusal extends HarvestError {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly description: string,
  ) {
    super(`The source answered ${status} to ${url}${description ? `: ${description}` : ''}`);
  }
}

/** The operator asked the harvest to stop (Ctrl-C, SIGTERM). */
export class HarvestStopped extends Error {
  override name = 'HarvestStopped';
}

export type PageFormat = 'json' | 'xml';

export interface RequestOptions {
  readonly format: PageFormat;
  readonly userAgent: string;
  readonly token?: string;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** A page larger than this is refused, so a broken source cannot exhaust memory. */
  readonly maxBytes: number;
  /** A record larger than this (characters of its text) is refused, naming it. */
  readonly maxRecordChars?: number;
  /** Aborting it stops every request at once. */
  readonly stop: AbortSignal;
  /** Told about each failure that will be tried again. */
  readonly onRetry?: (message: string) => void;
}

export interface FetchedPage {
  readonly url: string;
  readonly body: string;
  /** Where each record of a JSON page starts and ends in `body`, when the page is a well-formed array. */
  readonly spans?: readonly (readonly [number, number])[];
  /** The `rel="next"` target, absolute. */
  readonly next?: string;
  /** `X-Total-Count`, when the source sends a readable one. */
  readonly total?: number;
  /** Tries it took, the successful one included. */
  readonly attempts: number;
}

function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no complete answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}

/** A failure that may pass on another try, as the operator reads it. */
function transientMessage(error: unknown, url: string, timeoutMs: number): string {
  if (error instanceof ApiRequestError) return `the source answered ${error.status} to ${url}`;
  if (error instanceof NetworkError && error.phase === 'body') {
    return `the connection broke while reading ${url}: ${reasonOf(error.cause, timeoutMs)}`;
  }
  return `no answer from ${error instanceof NetworkError ? error.url : url}: ${reasonOf(error instanceof NetworkError ? error.cause : error, timeoutMs)}`;
}

/** Any other failure of a page request, in the operator's terms. */
function harvestErrorOf(error: unknown, url: string, options: RequestOptions): unknown {
  if (error instanceof ApiRequestError) {
    const description = error.apiError?.errorDescription.slice(0, 300) ?? error.excerpt;
    if (error.status === 401 || error.status === 403) {
      const hint = options.token ? 'the token from --token-file was not accepted' : 'the source needs a token: give it with --token-file';
      return new HarvestError(`The source refused access (${error.status}) to ${url}: ${hint}${description ? ` (${description})` : ''}.`);
    }
    return new SourceRefusal(error.status, url, description);
  }
  if (error instanceof NetworkError) {
    return new HarvestError(`The source's answer to ${error.url} cannot be read: ${reasonOf(error.cause, options.timeoutMs)}.`);
  }
  if (error instanceof InvalidResponseError) {
    return new HarvestError(
      `The source answered ${url} in another format (${error.problem.replace(/\.$/, '')}): is the base URL a records API (the path before /records)?`,
    );
  }
  if (error instanceof RedirectError) {
    return new HarvestError(
      error.reason === 'origin'
        ? `The source redirects ${error.url} to another origin (${error.location}); give that as the base URL if it is the source.`
        : `The source redirects ${error.url} more than ${maxRedirects} times.`,
    );
  }
  if (error instanceof BodyTooLargeError)
    return new HarvestError(`The page ${url} is larger than ${megabytes(error.maxBytes)}; ask for fewer rows.`);
  if (error instanceof RecordTooLarge) {
    return new HarvestError(`Refused the page ${url}: its ${error.message}; records over ${megabytes(error.limit)} are refused.`);
  }
  if (error instanceof PagingError) {
    return new HarvestError(
      `The source's next page after ${error.url} changed between tries (${error.first}, then ${error.then}); run the harvest again.`,
    );
  }
  return error;
}

/**
 * GETs one page, trying again on transient failures as the policy allows. `onNext` hears
 * the page's `rel="next"` target as soon as the response head arrives, before the body is
 * read, so the pager can already ask for the following page.
 */
export async function fetchPage(
  url: string,
  options: RequestOptions,
  onNext: (next: string | undefined) => void = () => {},
): Promise<FetchedPage> {
  let attempts = 0;
  const tryOnce = async () => {
    attempts++;
    const watch = options.format === 'json' ? new JsonRecordWatch(options.maxRecordChars) : new XmlRecordWatch(options.maxRecordChars);
    let next: string | undefined;
    const answer = await getText(url, {
      format: options.format,
      headers: { 'User-Agent': options.userAgent },
      // The token goes only to the origin the operator pointed the harvest at.
      ...(options.token ? { auth: { token: options.token, origin: new URL(url).origin } } : {}),
      signal: options.stop,
      timeoutMs: options.timeoutMs,
      sameOriginRedirects: true,
      maxBytes: options.maxBytes,
      onText: (part) => watch.feed(part),
      onHead: (head) => {
        next = nextLink(head);
        onNext(next);
      },
    });
    const total = readTotal(answer.headers, url);
    const spans = watch instanceof JsonRecordWatch && watch.complete ? watch.spans : undefined;
    return { url, body: answer.text, ...(next ? { next } : {}), ...(total !== undefined ? { total } : {}), ...(spans ? { spans } : {}) };
  };
  try {
    const page = await withRetry(tryOnce, {
      policy: options.retry,
      signal: options.stop,
      onRetry: ({ attempt, delayMs, error }) =>
        options.onRetry?.(
          `${transientMessage(error, url, options.timeoutMs)}; trying again in ${(delayMs / 1000).toFixed(1)} s (try ${attempt + 1} of ${options.retry.attempts})`,
        ),
      giveUp: (error, tries, waitMs) =>
        waitMs === undefined
          ? new HarvestError(`Gave up after ${tries} tries: ${transientMessage(error, url, options.timeoutMs)}.`)
          : new HarvestError(
              `The source asks to wait ${Math.ceil(waitMs / 1000)} s (${transientMessage(error, url, options.timeoutMs)}); run the harvest again later.`,
            ),
    });
    return { ...page, attempts };
  } catch (error) {
    if (options.stop.aborted) throw new HarvestStopped('stopped');
    throw harvestErrorOf(error, url, options);
  }
}
