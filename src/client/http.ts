import { contentTypes, type ResponseFormat } from '../formats/media-types';
import { authorizationHeader, type ApiAuth } from './auth';
import { ApiRequestError, BodyTooLargeError, InvalidResponseError, NetworkError, RedirectError, isAbortError } from './errors';
import { formatName, matchesFormat, parseApiError, type Answer, type AnswerHead } from './responses';
import { retryAfterMs } from './retry';

/**
 * The one way this project asks an API for something, in the browser and in Node: the app,
 * the export downloads and the harvester all GET through `getText`. It negotiates the format
 * (Accept, then the answer's Content-Type), sends a private mirror's token to its own origin
 * only, turns every failure into one of the client's errors, and reads the body within the
 * caller's bounds. Retries (retry.ts) and paging (pages.ts) are built on it.
 */

export interface RequestOptions {
  readonly signal?: AbortSignal | undefined;
  /** Injected in tests; the global fetch otherwise. */
  readonly fetch?: typeof fetch | undefined;
  /** A private mirror's token, sent only to its own origin. */
  readonly auth?: ApiAuth | undefined;
}

export interface GetOptions extends RequestOptions {
  /** Asked for with Accept and required of the answer's Content-Type; JSON unless told. */
  readonly format?: ResponseFormat;
  /** Further request headers (the harvester's User-Agent). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The whole exchange, body included, ends after this long with a TimeoutError. */
  readonly timeoutMs?: number;
  /**
   * Follow redirects only within the first URL's origin, so a token goes nowhere else
   * (a RedirectError otherwise). For Node: a browser hides a redirect's target.
   */
  readonly sameOriginRedirects?: boolean;
  /** A body larger than this ends the read with a BodyTooLargeError. */
  readonly maxBytes?: number;
  /** Told the answer's head before its body is read (a pager asks for the next page then). */
  readonly onHead?: (head: AnswerHead) => void;
  /** Sees the body's text as it arrives; what it throws ends the read and is thrown. */
  readonly onText?: (part: string) => void;
}

/** What an error answer's body is read to, for its Error object: enough, and bounded. */
const errorBodyBytes = 64 * 1024;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
export const maxRedirects = 5;

/**
 * A signal that aborts after `ms` or with `signal`. Not `AbortSignal.timeout`: Node holds
 * that signal weakly, and once a collection drops it, fetch never hears the timeout and a
 * stalled server hangs the caller for good. The timer here holds its controller strongly.
 */
function deadline(signal: AbortSignal | undefined, ms: number | undefined): { signal: AbortSignal | undefined; clear: () => void } {
  if (ms === undefined) return { signal, clear: () => {} };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
  return { signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal, clear: () => clearTimeout(timer) };
}

/**
 * A rejection of fetch or of a body read: an abort or timeout as the signal says it (Chromium
 * rejects a body read cut by any abort with a bare AbortError, so a request that timed out
 * mid-body would read as stopped by the user), anything else a NetworkError.
 */
function failure(cause: unknown, url: string, signal: AbortSignal | undefined, phase: 'head' | 'body'): unknown {
  if (signal?.aborted) return signal.reason;
  if (isAbortError(cause)) return cause;
  return new NetworkError(url, { cause }, phase);
}

async function send(url: string, options: GetOptions, signal: AbortSignal | undefined): Promise<{ response: Response; url: string }> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const origin = new URL(url).origin;
  let target = url;
  for (let hop = 0; ; hop++) {
    const headers = { ...options.headers, Accept: contentTypes[options.format ?? 'json'], ...authorizationHeader(target, options.auth) };
    let response: Response;
    try {
      response = await fetchFn(target, { headers, signal, ...(options.sameOriginRedirects ? { redirect: 'manual' as const } : {}) });
    } catch (cause) {
      throw failure(cause, target, signal, 'head');
    }
    const location = response.headers.get('Location');
    if (!options.sameOriginRedirects || !redirectStatuses.has(response.status) || !location) {
      return { response, url: response.url || target };
    }
    await response.body?.cancel();
    const next = new URL(location, target);
    if (next.origin !== origin) throw new RedirectError(target, next.href, 'origin');
    if (hop >= maxRedirects) throw new RedirectError(url, next.href, 'count');
    target = next.href;
  }
}

/**
 * The body as text, ended as soon as it passes `maxBytes` or `onText` throws: what a server
 * sends is never held beyond the caller's bounds.
 */
async function readBody(response: Response, url: string, signal: AbortSignal | undefined, options: GetOptions): Promise<string> {
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder('utf-8');
  let size = 0;
  let text = '';
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (cause) {
      throw failure(cause, url, signal, 'body');
    }
    try {
      if (!chunk.done) {
        size += chunk.value.byteLength;
        if (options.maxBytes !== undefined && size > options.maxBytes) throw new BodyTooLargeError(url, options.maxBytes);
      }
      const part = chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      options.onText?.(part);
      text += part;
    } catch (error) {
      await reader.cancel().catch(() => undefined);
      throw error;
    }
    if (chunk.done) return text;
  }
}

/**
 * GETs `url` in the format asked for and reads the whole answer. Throws an ApiRequestError
 * for any status but 200 (with the server's Error object and Retry-After), a NetworkError
 * when no answer or only part of one came, an InvalidResponseError for another format, and
 * an abort or timeout as it is.
 */
export async function getText(url: string, options: GetOptions = {}): Promise<Answer> {
  const { signal, clear } = deadline(options.signal, options.timeoutMs);
  try {
    const { response, url: answered } = await send(url, options, signal);
    if (response.status !== 200) {
      const body = await readBody(response, url, signal, { maxBytes: errorBodyBytes }).catch(() => '');
      const excerpt = body.replace(/\s+/g, ' ').trim().slice(0, 300);
      throw new ApiRequestError(response.status, url, parseApiError(body), retryAfterMs(response.headers.get('Retry-After')), excerpt);
    }
    const format = options.format ?? 'json';
    const contentType = response.headers.get('Content-Type');
    if (!matchesFormat(contentType, format)) {
      await response.body?.cancel();
      // Saving JSON under a .xml name would hand the user a broken file; say so instead.
      throw new InvalidResponseError(url, `expected ${formatName[format]}, received ${contentType?.split(';')[0]}.`);
    }
    const head = { url: answered, headers: response.headers };
    try {
      options.onHead?.(head);
    } catch (error) {
      await response.body?.cancel();
      throw error;
    }
    return { ...head, text: await readBody(response, url, signal, options) };
  } finally {
    clear();
  }
}
