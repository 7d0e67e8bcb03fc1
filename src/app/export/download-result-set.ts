import type { ApiAuth } from '../../client/auth';
import { ApiRequestError, InvalidResponseError, isAbortError } from '../../client/errors';
import { getText } from '../../client/http';
import { followPages, nextLink } from '../../client/pages';
import { validateRecords } from '../../client/records';
import { generatedRecordsHeader, parseGeneratedIds } from '../../formats/extension-headers';
import { readTotal } from '../../client/responses';
import { withRetry, type RetryPolicy } from '../../client/retry';
import { paramByName, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { downloadCap, downloadRetryPolicy } from './download-limits';
import type { DownloadOutcome, DownloadProgress } from './download-protocol';
import { exportFormat, type ExportFormatId } from './export-formats';
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
  readonly retryPolicy?: RetryPolicy;
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

interface FetchedPage {
  readonly url: string;
  readonly units: PageUnits;
  readonly total: number | undefined;
  readonly next: string | undefined;
}

async function fetchPage(
  deployment: Deployment,
  url: string,
  format: ExportFormatId,
  hooks: DownloadHooks,
  auth?: ApiAuth,
): Promise<FetchedPage> {
  const request = exportFormat(format).request;
  const answer = await getText(url, { format: request, fetch: hooks.fetch, signal: hooks.signal, auth });
  const text = answer.text;
  const total = readTotal(answer.headers, url);
  const next = nextLink(answer);
  const generated = parseGeneratedIds(answer.headers.get(generatedRecordsHeader));
  let units: PageUnits;
  if (request === 'xml') {
    const page = splitXmlPage(text, url);
    units = { kind: 'xml', prologue: page.prologue, records: page.records, generated };
  } else if (request === 'bibtex') {
    units = { kind: 'bibtex', entries: splitBibtexPage(text), generated };
  } else {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new InvalidResponseError(url, 'expected JSON, received something else (or a cut-off answer).');
    }
    const records: ApiRecord[] = validateRecords(deployment, raw, url);
    units = { kind: 'records', records, raw: raw as unknown[], generated };
  }
  return { url, units, total, next };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function downloadResultSet(request: DownloadRequest, hooks: DownloadHooks): Promise<DownloadOutcome> {
  const { deployment, format } = request;
  const cap = request.cap ?? downloadCap;
  const writer = createResultSetWriter(deployment, format, { bom: request.bom });
  const first = firstPageUrl(deployment, request.searchUrl);
  let pageNumber = 0;
  let written = 0;
  let total: number | undefined;
  const expected = () => (total === undefined ? undefined : Math.min(total, cap));

  // Each page is asked for only once the one before is written (`ahead` 0), and retried.
  const pages = followPages<FetchedPage>(first, {
    signal: hooks.signal,
    fetchPage: (url) =>
      withRetry(() => fetchPage(deployment, url, format, hooks, request.auth), {
        policy: hooks.retryPolicy ?? downloadRetryPolicy,
        signal: hooks.signal,
        ...(hooks.sleep ? { sleep: hooks.sleep } : {}),
        onRetry: ({ attempt, delayMs, error }) => hooks.onRetry?.({ page: pageNumber + 1, attempt, delayMs, error }),
      }),
    // The first page also falls back to the server's own page size.
    ...(new URL(first).searchParams.has('rows') ? { fallback: { url: withoutRows(first), when: refusesRows } } : {}),
  });

  try {
    for await (const page of pages) {
      pageNumber += 1;
      total ??= page.total;
      const units = takeUnits(page.units, cap - written);
      const count = unitCount(units);
      const chunk = writer.page(units);
      if (chunk) await hooks.write(chunk);
      written += count;
      hooks.onProgress?.({ written, expected: expected(), total });
      // An empty page ends the set, whatever its Link header says.
      if (unitCount(page.units) === 0 || written >= cap) break;
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
