import { parseLinkHeader } from '../../formats/link-header';
import { firstElementText } from '../../formats/text';
import { JsonRecordWatch, megabytes, RecordTooLarge, XmlRecordWatch, type RecordWatch } from '../import/record-size';
import { backoffMs, pause, retryableStatuses, retryAfterMs, type RetryPolicy } from './retry';

/** One page request of a harvest: headers, timeout, size limit, retries, and what a refusal means. */

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

const acceptOf: Record<PageFormat, string> = { json: 'application/json', xml: 'application/xml' };
const formatPattern: Record<PageFormat, RegExp> = { json: /[/+]json\b/i, xml: /[/+]xml\b/i };

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

/** A failure worth another try, with the pause the source asked for if any. */
class Transient extends Error {
  constructor(
    message: string,
    readonly waitMs?: number,
  ) {
    super(message);
  }
}

/** The `errorDescription` of the spec's Error object (JSON or XML), else the start of the body. */
function describeErrorBody(body: string): string {
  try {
    const parsed = JSON.parse(body) as { errorDescription?: unknown };
    if (typeof parsed.errorDescription === 'string') return parsed.errorDescription.slice(0, 300);
  } catch {
    // not JSON: try XML, then plain text
  }
  const xml = firstElementText(body, 'errorDescription');
  return (xml ?? body).replace(/\s+/g, ' ').trim().slice(0, 300);
}

/**
 * The body as text, refused as soon as it passes `maxBytes` or `watch` finds a record over
 * the record limit: what a source sends is never held beyond those bounds.
 */
async function readBody(response: Response, maxBytes: number, url: string, watch?: RecordWatch): Promise<string> {
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder('utf-8');
  let size = 0;
  let text = '';
  const refuse = async (message: string) => {
    await reader.cancel().catch(() => undefined);
    return new HarvestError(message);
  };
  for (;;) {
    const { done, value } = await reader.read();
    const part = done ? decoder.decode() : decoder.decode(value, { stream: true });
    if (!done) {
      size += value.byteLength;
      if (size > maxBytes) throw await refuse(`The page ${url} is larger than ${megabytes(maxBytes)}; ask for fewer rows.`);
    }
    try {
      watch?.feed(part);
    } catch (error) {
      if (!(error instanceof RecordTooLarge)) throw error;
      throw await refuse(`Refused the page ${url}: its ${error.message}; records over ${megabytes(error.limit)} are refused.`);
    }
    text += part;
    if (done) return text;
  }
}

function whyRefused(status: number, url: string, description: string, token: string | undefined): HarvestError {
  if (status === 401 || status === 403) {
    const hint = token ? 'the token from --token-file was not accepted' : 'the source needs a token: give it with --token-file';
    return new HarvestError(`The source refused access (${status}) to ${url}: ${hint}${description ? ` (${description})` : ''}.`);
  }
  return new SourceRefusal(status, url, description);
}

function totalOf(header: string | null): number | undefined {
  return header && /^\d+$/.test(header.trim()) ? Number(header.trim()) : undefined;
}

/**
 * Whether a failed fetch may go better on another try: a timeout, or a connection that
 * failed or broke. Not a URL fetch refuses (credentials in it) nor a response head larger
 * than the client reads (a megabyte of Link header): the same request fails the same way.
 */
function mayPassOnRetry(error: unknown): boolean {
  if (error instanceof DOMException) return error.name === 'TimeoutError';
  const cause = (error as { cause?: { code?: unknown } }).cause;
  if (!(error instanceof TypeError) || error.message !== 'fetch failed') return false;
  return !(typeof cause?.code === 'string' && permanentFetchFailures.has(cause.code));
}

const permanentFetchFailures = new Set(['UND_ERR_HEADERS_OVERFLOW', 'UND_ERR_INVALID_ARG', 'ERR_INVALID_URL', 'ERR_INVALID_ARG_TYPE']);

const redirects = new Set([301, 302, 303, 307, 308]);
const maxRedirects = 5;

/**
 * GET, following redirects within the origin only: the token and the contact go where the
 * operator pointed the harvest and nowhere else, so a redirect away is a stop, not a hop.
 */
async function get(url: string, options: RequestOptions, signal: AbortSignal): Promise<{ response: Response; url: string }> {
  const headers: Record<string, string> = { Accept: acceptOf[options.format], 'User-Agent': options.userAgent };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let target = url;
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await fetch(target, { headers, signal, redirect: 'manual' });
    } catch (error) {
      if (!mayPassOnRetry(error))
        throw new HarvestError(`The source's answer to ${target} cannot be read: ${reasonOf(error, options.timeoutMs)}.`);
      throw new Transient(`no answer from ${target}: ${reasonOf(error, options.timeoutMs)}`);
    }
    const location = response.headers.get('location');
    if (!redirects.has(response.status) || !location) return { response, url: target };
    await response.body?.cancel();
    const next = new URL(location, target);
    if (next.origin !== new URL(url).origin) {
      throw new HarvestError(
        `The source redirects ${target} to another origin (${next.href}); give that as the base URL if it is the source.`,
      );
    }
    if (hop >= maxRedirects) throw new HarvestError(`The source redirects ${url} more than ${maxRedirects} times.`);
    target = next.href;
  }
}

/**
 * A signal that aborts after `ms` or on `stop`. Not `AbortSignal.timeout`: Node holds that
 * signal weakly, and once a collection drops it, fetch never hears the timeout and a
 * stalled source hangs the harvest for good. The timer here holds its controller strongly.
 */
function deadline(stop: AbortSignal, ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
  return { signal: AbortSignal.any([stop, controller.signal]), clear: () => clearTimeout(timer) };
}

async function tryOnce(
  url: string,
  options: RequestOptions,
  onNext: (next: string | undefined) => void,
): Promise<Omit<FetchedPage, 'attempts'>> {
  const { signal, clear } = deadline(options.stop, options.timeoutMs);
  try {
    return await answerOf(url, options, signal, onNext);
  } finally {
    clear();
  }
}

async function answerOf(
  url: string,
  options: RequestOptions,
  signal: AbortSignal,
  onNext: (next: string | undefined) => void,
): Promise<Omit<FetchedPage, 'attempts'>> {
  const { response, url: answered } = await get(url, options, signal);
  if (response.status !== 200) {
    const body = await readBody(response, 64 * 1024, url).catch(() => '');
    if (retryableStatuses.has(response.status)) {
      throw new Transient(`the source answered ${response.status} to ${url}`, retryAfterMs(response.headers.get('retry-after')));
    }
    throw whyRefused(response.status, url, describeErrorBody(body), options.token);
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (!formatPattern[options.format].test(contentType)) {
    await response.body?.cancel();
    throw new HarvestError(
      `The source answered ${url} with '${contentType || 'no content type'}', not ${options.format.toUpperCase()}: is the base URL a records API (the path before /records)?`,
    );
  }
  const next = parseLinkHeader(response.headers.get('link'), answered).next;
  onNext(next);
  let body: string;
  const watch = options.format === 'json' ? new JsonRecordWatch(options.maxRecordChars) : new XmlRecordWatch(options.maxRecordChars);
  try {
    body = await readBody(response, options.maxBytes, url, watch);
  } catch (error) {
    if (error instanceof HarvestError) throw error;
    throw new Transient(`the connection broke while reading ${url}: ${reasonOf(error, options.timeoutMs)}`);
  }
  const spans = watch instanceof JsonRecordWatch && watch.complete ? watch.spans : undefined;
  return { url, body, next, total: totalOf(response.headers.get('x-total-count')), ...(spans ? { spans } : {}) };
}

function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no complete answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
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
  for (let attempt = 1; ; attempt++) {
    try {
      return { ...(await tryOnce(url, options, onNext)), attempts: attempt };
    } catch (error) {
      if (options.stop.aborted) throw new HarvestStopped('stopped');
      if (!(error instanceof Transient)) throw error;
      if (attempt >= options.retry.attempts) {
        throw new HarvestError(`Gave up after ${attempt} tries: ${error.message}.`);
      }
      if (error.waitMs !== undefined && error.waitMs > options.retry.maxRetryAfterMs) {
        throw new HarvestError(
          `The source asks to wait ${Math.ceil(error.waitMs / 1000)} s (${error.message}); run the harvest again later.`,
        );
      }
      const wait = error.waitMs ?? backoffMs(options.retry, attempt);
      options.onRetry?.(
        `${error.message}; trying again in ${(wait / 1000).toFixed(1)} s (try ${attempt + 1} of ${options.retry.attempts})`,
      );
      try {
        await pause(wait, options.stop);
      } catch {
        throw new HarvestStopped('stopped');
      }
    }
  }
}
