import { authorizationHeader } from '../../client/auth';
import { ApiRequestError, InvalidResponseError, NetworkError, isAbortError } from '../../client/errors';
import { parseApiError, type RequestOptions } from '../../client/responses';
import { contentTypes, type ResponseFormat } from '../../formats/media-types';

/**
 * GET in one of the server's three formats, chosen by Accept. The client's own requests
 * are JSON only; exports also need XML and BibTeX exactly as the server writes them.
 */

const formatNames: Record<ResponseFormat, string> = { json: 'JSON', xml: 'XML', bibtex: 'BibTeX' };

/** Whether a Content-Type is the format asked for (servers label BibTeX variously). */
function matchesFormat(contentType: string | null, format: ResponseFormat): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!type) return true;
  if (format === 'json') return type === 'application/json' || type.endsWith('+json');
  if (format === 'xml') return type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');
  return type.includes('bibtex') || type === 'text/plain';
}

export async function fetchNegotiated(url: string, format: ResponseFormat, options: RequestOptions = {}): Promise<Response> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    const headers = { Accept: contentTypes[format], ...authorizationHeader(url, options.auth) };
    response = await fetchFn(url, { headers, signal: options.signal });
  } catch (cause) {
    if (isAbortError(cause) || options.signal?.aborted) throw cause;
    throw new NetworkError(url, { cause });
  }
  if (response.status !== 200) {
    let body = '';
    try {
      body = await response.text();
    } catch {
      // The status alone still says what happened.
    }
    throw new ApiRequestError(response.status, url, parseApiError(body));
  }
  const contentType = response.headers.get('Content-Type');
  if (!matchesFormat(contentType, format)) {
    // Saving JSON under a .xml name would hand the user a broken file; say so instead.
    throw new InvalidResponseError(url, `asked for ${formatNames[format]}, received ${contentType?.split(';')[0]}.`);
  }
  return response;
}

/** The body as text; a connection dropped mid-body is a network failure, not a bad answer. */
export async function readText(response: Response, url: string, signal?: AbortSignal): Promise<string> {
  try {
    return await response.text();
  } catch (cause) {
    if (isAbortError(cause) || signal?.aborted) throw cause;
    throw new NetworkError(url, { cause });
  }
}
