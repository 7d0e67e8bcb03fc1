import type { Deployment } from '../../deployments/schema';
import { dayOfTimestamp, formatDay, type Day } from '../../formats/dates';
import { ImportError, parseUpstreamJson } from '../import/upstream';
import { megabytes } from '../import/record-size';
import { openRecordWriter } from '../store/open-writer';
import type { RecordWriter, StoredRecord } from '../store/types';
import { followPages } from './pager';
import type { Progress } from './progress';
import { HarvestError, HarvestStopped, type FetchedPage, type PageFormat } from './request';
import type { RetryPolicy } from '../../client/retry';
import { defaultRetryPolicy } from './retry';
import { offThreadChars, parseXmlPage } from './xml-page';

/**
 * One harvest run: the source's records in entry-date order, page by page, written into
 * the store in place, a batch per transaction, with the resume point advanced after each.
 */

export interface HarvestOptions {
  readonly deployment: Deployment;
  /** The source deployment's base URL, without `/records` or a trailing slash. */
  readonly baseUrl: string;
  /** The SQLite file to fill, unless `storeUrl` names a PostgreSQL store. */
  readonly dbPath: string;
  readonly storeUrl?: string;
  /** Entry day to start from; without it, the stored resume point, else everything. */
  readonly since?: Day;
  readonly format?: PageFormat;
  readonly concurrency?: number;
  readonly token?: string;
  readonly userAgent: string;
  readonly timeoutMs?: number;
  readonly retry?: RetryPolicy;
  readonly maxPageBytes?: number;
  /** A record over this many characters is refused, naming it (import/record-size.ts). */
  readonly maxRecordChars?: number;
  /** Records per store transaction; whole pages are added until it is reached. */
  readonly batchRecords?: number;
  /** The page size asked for first; a source that refuses it pages at its default. */
  readonly preferredRows?: number;
  /**
   * Aborting it stops the run at once: what was received since the last write is not
   * written (the resume point is before it, so the next run fetches it again), as a write
   * of large records can take longer than an operator should wait.
   */
  readonly stop?: AbortSignal;
  /**
   * Told when a batch starts being written and when it is done: a write holds the thread
   * until it commits, so the command lets a signal end the process meanwhile (command.ts).
   */
  readonly writing?: (busy: boolean) => void;
  readonly progress?: Progress;
}

export interface HarvestReport {
  /** The entry day the run started from (inclusive), or undefined for the whole source. */
  readonly from?: Day;
  /** Whether `from` came from the stored resume point rather than --since. */
  readonly resumed: boolean;
  /** Records received, duplicates included. */
  readonly received: number;
  /** Different repo_ids received. */
  readonly distinct: number;
  /** Records the store did not hold before. */
  readonly added: number;
  /** Records that replaced a different stored version. */
  readonly replaced: number;
  /** Records received exactly as stored already (not written again). */
  readonly unchanged: number;
  /** `X-Total-Count` of the first and of the last page. */
  readonly reportedFirst?: number;
  readonly reportedLast?: number;
  /** HTTP requests made, retries included. */
  readonly requests: number;
  readonly pages: number;
  /** Whether the last page was reached. */
  readonly complete: boolean;
  /**
   * Whether the records came in entry-date order as asked. A source that ignores the sort
   * gets its resume point saved only when a run completes.
   */
  readonly inOrder: boolean;
  readonly stopped: boolean;
  readonly elapsedMs: number;
}

/** Records, and characters of them, of a JSON page parsed at a time; between slices the process hears its signals. */
const parseSlice = 100;
const parseSliceChars = 1024 * 1024;

/**
 * A page's records, read a slice at a time when the page is a well-formed JSON array whose
 * records the watch delimited, so a large page never holds the event loop (and a SIGTERM)
 * for long; otherwise in one piece, which also gives a malformed page's error. A large XML
 * page is parsed on a thread a stop ends (xml-page.ts).
 */
async function* recordsOf(
  deployment: Deployment,
  page: FetchedPage,
  format: PageFormat,
  stop: AbortSignal,
): AsyncGenerator<StoredRecord[]> {
  if (format === 'xml') {
    yield await parseXmlPage(deployment, page.body, page.url, stop);
    return;
  }
  if (!page.spans) {
    yield parseUpstreamJson(deployment, page.body, page.url);
    return;
  }
  const { spans } = page;
  for (let first = 0; first < spans.length;) {
    // At least one record, then more while the slice stays small.
    let last = first;
    while (last + 1 < spans.length && last + 1 - first < parseSlice && spans[last + 1]![1] - spans[first]![0] <= parseSliceChars) last++;
    yield parseUpstreamJson(deployment, `[${page.body.slice(spans[first]![0], spans[last]![1])}]`, page.url, first + 1);
    first = last + 1;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * A run ends when its source stops bringing anything new: this many pages in a row without
 * a record not received before (empty pages behind endless distinct `next` links, or the
 * same records again and again).
 */
export const maxBarrenPages = 20;
/** Nor may it receive more than this many records per different record, beyond a first allowance. */
export const maxReceivedPerDistinct = 4;
const receivedAllowance = 10_000;

/** The listing URL: entry-date order, so an interruption leaves a clean boundary. */
function listingUrl(options: HarvestOptions, from: Day | undefined, rows: number | undefined): string {
  const url = new URL(`${options.baseUrl}/records`);
  if (from) url.searchParams.set('entry_date_start', formatDay(from, options.deployment.dateFormat));
  url.searchParams.set('sort', 'entry_date');
  url.searchParams.set('order', 'asc');
  if (rows !== undefined) url.searchParams.set('rows', String(rows));
  return url.href;
}

async function openTarget(options: HarvestOptions): Promise<RecordWriter> {
  const where = options.storeUrl ? 'the store' : `the database ${options.dbPath}`;
  try {
    // Written in place even when new: each batch must survive a kill, to resume from.
    return await openRecordWriter(options.storeUrl ? { storeUrl: options.storeUrl } : { db: options.dbPath });
  } catch (error) {
    throw new HarvestError(`Cannot write to ${where}: ${(error as Error).message}`);
  }
}

const entryOf = ({ record }: StoredRecord) => (typeof record.entry_date === 'string' ? record.entry_date : '');

/** A batch of pages this large takes long enough to write that the operator is told so at once. */
const largeBatchChars = 8 * 1024 * 1024;

/** A page over this is refused: a thousand records of 64 KB each. */
export const defaultMaxPageBytes = 64 * 1024 * 1024;

export async function harvest(options: HarvestOptions): Promise<HarvestReport> {
  const { deployment, baseUrl } = options;
  const started = Date.now();
  const target = await openTarget(options);
  const stored = await target.harvests.state(deployment.key, baseUrl);
  const from = options.since ?? dayOfTimestamp(stored?.newestEntry);
  const resumed = options.since === undefined && from !== undefined;

  // The pager stops with the caller's signal, and at the end of the run whatever it prefetched.
  const halt = new AbortController();
  const onStop = () => halt.abort();
  options.stop?.addEventListener('abort', onStop, { once: true });
  if (options.stop?.aborted) halt.abort();

  const seen = new Set<string>();
  let batch = new Map<string, StoredRecord>();
  let batchSize = 0;
  /** Characters of the pages in the batch. */
  let batchChars = 0;
  let received = 0;
  let added = 0;
  let replaced = 0;
  let unchanged = 0;
  let requests = 0;
  let pages = 0;
  let reportedFirst: number | undefined;
  let reportedLast: number | undefined;
  /**
   * The spec describes X-Total-Count as the records of the current response, and shows
   * it as the total of the search; a source whose count is each page's own is not
   * compared with the total received.
   */
  let countsArePageSizes = true;
  let complete = false;
  let inOrder = true;
  /** The newest entry date received, and the newest of the batches written. */
  let newestReceived = '';
  let newestWritten = '';

  const flush = async () => {
    if (batch.size === 0) return;
    // Told first: once the operator reads that the write began, a signal ends it.
    options.writing?.(true);
    options.progress?.update(
      { received, ...(reportedFirst !== undefined ? { total: reportedFirst } : {}), writing: batch.size },
      batchChars >= largeBatchChars,
    );
    try {
      await write();
    } finally {
      options.writing?.(false);
    }
  };
  const write = async () => {
    const records = [...batch.values()];
    const fresh = await target.changed(deployment.key, records);
    unchanged += records.length - fresh.length;
    let written = 0;
    if (fresh.length > 0) {
      const before = await target.count(deployment.key);
      try {
        written = await target.put(deployment.key, fresh);
      } catch (error) {
        throw new HarvestError(`Cannot write to ${target.name}: ${(error as Error).message}`);
      }
      const grown = (await target.count(deployment.key)) - before;
      added += grown;
      replaced += written - grown;
    }
    newestWritten = newestReceived;
    if (inOrder && newestWritten) await target.harvests.advance(deployment.key, baseUrl, newestWritten, written);
    batch = new Map();
    batchSize = 0;
    batchChars = 0;
  };

  const rows = options.preferredRows ?? 1000;
  const batchRecords = options.batchRecords ?? 1000;
  const format = options.format ?? 'json';
  let barren = 0;
  try {
    const listing = followPages(listingUrl(options, from, rows), listingUrl(options, from, undefined), {
      format,
      userAgent: options.userAgent,
      ...(options.token ? { token: options.token } : {}),
      timeoutMs: options.timeoutMs ?? 60_000,
      retry: options.retry ?? defaultRetryPolicy,
      maxBytes: options.maxPageBytes ?? defaultMaxPageBytes,
      ...(options.maxRecordChars ? { maxRecordChars: options.maxRecordChars } : {}),
      stop: halt.signal,
      concurrency: options.concurrency ?? 1,
      onRetry: (message) => options.progress?.note(`  ${message}`),
      onFallback: (refusal) => {
        requests++;
        options.progress?.note(
          `  The source refuses rows=${rows} (${refusal.description || refusal.status}); using its default page size.`,
        );
      },
    });
    for await (const page of listing) {
      pages++;
      requests += page.attempts;
      const distinctBefore = seen.size;
      let pageRecords = 0;
      try {
        if (format === 'xml' && page.body.length >= offThreadChars)
          options.progress?.note(`  reading a page of ${megabytes(page.body.length)}`);
        for await (const records of recordsOf(deployment, page, format, halt.signal)) {
          for (const record of records) {
            seen.add(record.record.repo_id);
            batch.set(record.record.repo_id, record);
            const entry = entryOf(record);
            if (entry && entry < newestReceived) inOrder = false;
            if (entry > newestReceived) newestReceived = entry;
          }
          pageRecords += records.length;
        }
      } catch (error) {
        if (!(error instanceof ImportError)) throw error;
        throw new HarvestError(`The source sent a record that does not fit ${deployment.key}: ${error.message}`);
      }
      reportedFirst ??= page.total;
      reportedLast = page.total ?? reportedLast;
      if (page.total !== pageRecords) countsArePageSizes = false;
      received += pageRecords;
      batchSize += pageRecords;
      batchChars += page.body.length;
      barren = seen.size > distinctBefore ? 0 : barren + 1;
      if (page.next !== undefined && barren >= maxBarrenPages) {
        throw new HarvestError(
          `The source sent ${barren} pages in a row with no record not received before (the last ${page.url}); its paging does not end.`,
        );
      }
      if (page.next !== undefined && received > maxReceivedPerDistinct * seen.size + receivedAllowance) {
        throw new HarvestError(
          `The source sent ${received.toLocaleString('en-US')} records for ${seen.size.toLocaleString('en-US')} different ones (the last page ${page.url}); its paging repeats itself.`,
        );
      }
      if (batchSize >= batchRecords) await flush();
      options.progress?.update({ received, ...(reportedFirst !== undefined ? { total: reportedFirst } : {}) });
      if (page.next === undefined) complete = true;
      if (halt.signal.aborted) break;
    }
  } catch (error) {
    if (!(error instanceof HarvestStopped)) {
      // Pages received before the failure are whole and in order: keep them.
      if (!options.stop?.aborted) await flush().catch(() => undefined);
      await closeAll(target, halt, options, onStop);
      throw error;
    }
  }
  // Asked to stop: what was received since the last write waits for the next run.
  if (options.stop?.aborted && batch.size > 0) complete = false;
  else await flush();
  const stopped = !complete;
  if (complete) {
    if (!inOrder && newestWritten) await target.harvests.advance(deployment.key, baseUrl, newestWritten, 0);
    await target.harvests.complete(deployment.key, baseUrl, new Date().toISOString());
  }
  await closeAll(target, halt, options, onStop);
  return {
    ...(from ? { from } : {}),
    resumed,
    received,
    distinct: seen.size,
    added,
    replaced,
    unchanged,
    ...(reportedFirst !== undefined && !(countsArePageSizes && pages > 1) ? { reportedFirst, reportedLast: reportedLast! } : {}),
    requests,
    pages,
    complete,
    inOrder,
    stopped,
    elapsedMs: Date.now() - started,
  };
}

/** Lets go of the store; every batch was complete and durable when its put returned. */
async function closeAll(target: RecordWriter, halt: AbortController, options: HarvestOptions, onStop: () => void): Promise<void> {
  halt.abort();
  options.stop?.removeEventListener('abort', onStop);
  options.progress?.done();
  await target.close();
}
