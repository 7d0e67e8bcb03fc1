import { z } from 'zod';
import { apiErrorSchema, errorFromText, type ApiError } from '../formats/error';
import { firstElementText } from '../formats/text';
import { authorizationHeader, type ApiAuth } from './auth';
import { ApiRequestError, InvalidResponseError, NetworkError, isAbortError } from './errors';

/** Fetching and reading responses: the transport half of the client. */

export interface RequestOptions {
  readonly signal?: AbortSignal;
  /** Injected in tests; the global fetch otherwise. */
  readonly fetch?: typeof fetch;
  /** A private mirror's token, sent only to its own origin. */
  readonly auth?: ApiAuth | undefined;
}

/** GETs JSON; a failure to get any answer becomes a NetworkError, abort stays an abort. */
export async function getJson(url: string, options: RequestOptions): Promise<Response> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    const headers = { Accept: 'application/json', ...authorizationHeader(url, options.auth) };
    response = await fetchFn(url, { headers, signal: options.signal });
  } catch (cause) {
    if (isAbortError(cause) || options.signal?.aborted) throw cause;
    throw new NetworkError(url, { cause });
  }
  if (response.status !== 200) throw new ApiRequestError(response.status, url, await readApiError(response));
  return response;
}

function xmlElement(xml: string, name: string): string | undefined {
  return firstElementText(xml, name)
    ?.replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/**
 * The Error object of an error response, in whichever of the spec's three forms the server
 * chose (it should follow our Accept, but a proxy or another server may not), or undefined.
 */
export function parseApiError(body: string): ApiError | undefined {
  const text = body.trim();
  if (text.startsWith('{')) {
    try {
      const parsed = apiErrorSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
  if (text.startsWith('<')) {
    const statusCode = Number(xmlElement(text, 'statusCode'));
    const statusMessage = xmlElement(text, 'statusMessage');
    const errorDescription = xmlElement(text, 'errorDescription');
    if (!Number.isInteger(statusCode) || statusMessage === undefined || errorDescription === undefined) return undefined;
    return { statusCode, statusMessage, errorDescription };
  }
  return errorFromText(text);
}

async function readApiError(response: Response): Promise<ApiError | undefined> {
  try {
    return parseApiError(await response.text());
  } catch {
    return undefined;
  }
}

/** Parses a JSON body, naming what came instead when it is not JSON (an HTML page, say). */
export async function readJson(response: Response, url: string): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    const type = response.headers.get('Content-Type')?.split(';')[0]?.trim() || 'no content type';
    throw new InvalidResponseError(url, `expected JSON, received ${type}.`);
  }
}

/** "record 3: authors: expected array, received string" from zod's first issue. */
export function describeIssue(issue: z.core.$ZodIssue, prefix: string): string {
  const path = issue.path.map(String);
  const message = issue.message.replace(/^Invalid input:\s*/i, '');
  return [prefix, ...(path.length ? [path.join('.')] : []), message].filter(Boolean).join(': ');
}
