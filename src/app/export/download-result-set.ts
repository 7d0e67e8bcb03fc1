import type { ApiAuth } from '../../client/auth';
import { ApiRequestError, InvalidResponseError, isAbortError } from '../../client/errors';
import { validateRecords } from '../../client/records';
import { paramByName, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { parseLinkHeader } from '../../formats/link-header';
import { downloadCap, retryDelays } from './download-limits';
import type { DownloadOutcome, DownloadProgress } from './download-protocol';
import { exportFormat, type ExportFormatId } from './export-formats';
import { fetchNegotiated, readText } from './negotiated-fetch';
import { splitBibtexPage, splitXmlPage } from './page-split';
import { createResultSetWriter, takeUnits, unitCount, type PageUnits } from './result-set-writer';

/**
 * Downloads a whole result set: follows rel="next" from the first page at the largest page
 * size, turns each page into a chunk of the output file and hands it to `write` before
 * asking for the next, so memory stays flat however large the set. It never stops short
 * silently: a failed page is retried, and the outcome says how many records were written.
 */

export interface DownloadRequest {
  readonly deployment: Deployment;
  /** A search URL of the API; its page and page size are replaced. */
  readonly searchUrl: string;
  readonly format: ExportFormatId;
  readonly cap?: number;
  /** CSV only: start with a UTF-8 byte order mark. */
  readonly bom?: boolean;
  /** A private mirror's token (config.json). */
  readonly auth?: ApiAuth | undefined;
}

export interface DownloadHooks {
  /** Takes each chunk of the file; the next page is fetched once it resolves. */
  readonly write: (chunk: string) => Promise<void> | void;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly onRetry?: (retry: { page: number; attempt: number; delayMs: number; error: unknown }) => void;
  readonly signal?: AbortSignal;
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly delays?: readonly number[];
}

/** The first page at the deployment's largest page size (the API's default when it has no maximum). */
export function firstPageUrl(deployment: Deployment, searchUrl: string): string {
  const url = new URL(searchUrl);
  url.searchParams.delete('page');
  const rows = paramByName(deployment, 'rows');
  if (rows?.kind === 'integer') url.searchParams.set('rows', String(rows.max));
  return url.href;
}

function withoutRows(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('rows');
  return parsed.href;
}

/** A 400 that blames the page size: this server's maximum is smaller than ours. */
function refusesRows(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 400 && /\brows\b/i.test(error.apiError?.errorDescription ?? error.message);
}

/** Errors a later attempt may not meet: no answer, a server error, throttling, a cut-off body. */
function isRetryable(error: unknown): boolean {
  if (error instanceof ApiRequestError) return error.status >= 500 || error.status === 429 || error.status === 408;
  return !isAbortError(error);
}

export const abortableSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

interface FetchedPage {
  readonly units: PageUnits;
  readonly total: number | undefined;
  readonly next: string | undefined;
}

function parseTotal(header: string | null): number | undefined {
  return header !== null && /^\s*\d+\s*$/.test(header) ? Number(header) : undefined;
}

async function fetchPage(
  deployment: Deployment,
  url: string,
  format: ExportFormatId,
  hooks: DownloadHooks,
  auth?: ApiAuth,
): Promise<FetchedPage> {
  const request = exportFormat(format).request;
  const response = await fetchNegotiated(url, request, { fetch: hooks.fetch, signal: hooks.signal, auth });
  const text = await readText(response, url, hooks.signal);
  const total = parseTotal(response.headers.get('X-Total-Count'));
  const next = parseLinkHeader(response.headers.get('Link'), response.url || url).next;
  let units: PageUnits;
  if (request === 'xml') {
    const page = splitXmlPage(text, url);
    units = { kind: 'xml', prologue: page.prologue, records: page.records };
  } else if (request === 'bibtex') {
    units = { kind: 'bibtex', entries: splitBibtexPage(text) };
  } else {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new InvalidResponseError(url, 'expected JSON, received something else (or a cut-off answer).');
    }
    const records: ApiRecord[] = validateRecords(deployment, raw, url);
    units = { kind: 'records', records, raw: raw as unknown[] };
  }
  return { units, total, next };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function downloadResultSet(request: DownloadRequest, hooks: DownloadHooks): Promise<DownloadOutcome> {
  const { deployment, format } = request;
  const cap = request.cap ?? downloadCap;
  const sleep = hooks.sleep ?? abortableSleep;
  const delays = hooks.delays ?? retryDelays;
  const writer = createResultSetWriter(deployment, format, { bom: request.bom });
  const seen = new Set<string>();
  let url: string | undefined = firstPageUrl(deployment, request.searchUrl);
  let pageNumber = 0;
  let written = 0;
  let total: number | undefined;
  const expected = () => (total === undefined ? undefined : Math.min(total, cap));

  /** One page, retried; the first page also falls back to the server's own page size. */
  async function pageWithRetries(pageUrl: string): Promise<FetchedPage> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await fetchPage(deployment, pageUrl, format, hooks, request.auth);
      } catch (error) {
        if (hooks.signal?.aborted) throw hooks.signal.reason ?? error;
        if (pageNumber === 1 && refusesRows(error) && new URL(pageUrl).searchParams.has('rows')) {
          pageUrl = withoutRows(pageUrl);
          attempt = 0;
          continue;
        }
        const delayMs = delays[attempt - 1];
        if (!isRetryable(error) || delayMs === undefined) throw error;
        hooks.onRetry?.({ page: pageNumber, attempt, delayMs, error });
        await sleep(delayMs, hooks.signal);
      }
    }
  }

  try {
    while (url && !seen.has(url) && written < cap) {
      seen.add(url);
      pageNumber += 1;
      hooks.signal?.throwIfAborted();
      const page = await pageWithRetries(url);
      total ??= page.total;
      const units = takeUnits(page.units, cap - written);
      const count = unitCount(units);
      const chunk = writer.page(units);
      if (chunk) await hooks.write(chunk);
      written += count;
      hooks.onProgress?.({ written, expected: expected(), total });
      // An empty page ends the set, whatever its Link header says.
      if (unitCount(page.units) === 0) break;
      url = page.next;
    }
    hooks.signal?.throwIfAborted();
    await hooks.write(writer.end());
  } catch (error) {
    if (isAbortError(error) || hooks.signal?.aborted) return { status: 'cancelled', written, total };
    // Close the document so the part already written is still a valid file.
    try {
      await hooks.write(writer.end());
    } catch {
      // The file itself failed (disk full, say): the outcome below says so.
    }
    return { status: 'incomplete', written, total, reason: describe(error) };
  }
  const wanted = expected();
  if (wanted !== undefined && written < wanted) {
    return { status: 'incomplete', written, total, reason: 'The server ended the results before the count it announced.' };
  }
  return { status: 'complete', written, total, capped: total !== undefined && total > written && written >= cap };
}
