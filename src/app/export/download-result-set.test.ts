import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { recordsToBibtex } from '../../formats/bibtex';
import { recordsToFullBibtex } from '../../formats/bibtex-full';
import { recordsToCsv } from '../../formats/csv';
import { formatLinkHeader } from '../../formats/link-header';
import { recordsToXml } from '../../formats/xml';
import { downloadResultSet, firstPageUrl, type DownloadHooks } from './download-result-set';
import type { ExportFormatId } from './export-formats';

function must(key: string): Deployment {
  const deployment = deploymentByKey(key);
  if (!deployment) throw new Error(key);
  return deployment;
}

const lit = must('LIT');
const base = 'https://records.example/api/lit/v1';

const makeRecords = (count: number): ApiRecord[] =>
  Array.from({ length: count }, (_, index) => ({
    repo_id: String(index + 1),
    title: `Record ${index + 1}, "quoted" & <tagged>`,
    authors: [`Author${index + 1}, Ann [Lab] (ORCID:0000000123456789)`],
    publication_date: '2024-04-20T04:00:00Z',
    links: [{ rel: 'citation', href: `https://records.example/biblio/${index + 1}` }],
  }));

interface FakeServerOptions {
  readonly records: readonly ApiRecord[];
  /** Largest page size it accepts; beyond it a 400 naming rows. */
  readonly maxRows?: number;
  /** Answers for particular requests (by page number) before the normal answer. */
  readonly failures?: Record<number, (() => Response)[]>;
  /** Ignores Accept and always sends JSON. */
  readonly jsonOnly?: boolean;
  /** Stops linking to the next page after this page. */
  readonly lastLinkedPage?: number;
  /** Claims a total other than the number of records. */
  readonly claimedTotal?: number;
}

/**
 * A server that follows the spec: pages by rows/page, Link with an opaque cursor (the
 * client must follow it, not compute pages), X-Total-Count, and the three formats.
 */
function fakeServer(options: FakeServerOptions) {
  const requests: { url: string; accept: string }[] = [];
  const failures = Object.fromEntries(Object.entries(options.failures ?? {}).map(([page, list]) => [page, [...list]]));
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const accept = new Headers(init?.headers).get('Accept') ?? '';
    init?.signal?.throwIfAborted();
    requests.push({ url: url.href, accept });
    const rowsParam = url.searchParams.get('rows');
    const rows = rowsParam === null ? 20 : Number(rowsParam);
    if (options.maxRows !== undefined && rows > options.maxRows) {
      const error = { statusCode: 400, statusMessage: 'Bad Request', errorDescription: `rows must be at most ${options.maxRows}.` };
      return new Response(JSON.stringify(error), { status: 400, headers: { 'Content-Type': 'application/json' } });
    }
    const page = Number(url.searchParams.get('cursor') ?? '1');
    const failure = failures[page]?.shift();
    if (failure) return failure();
    const slice = options.records.slice((page - 1) * rows, page * rows);
    const total = options.records.length;
    const last = Math.max(1, Math.ceil(total / rows));
    const links = [];
    if (page < last && page < (options.lastLinkedPage ?? Infinity)) {
      const next = new URL(url);
      next.searchParams.set('cursor', String(page + 1));
      links.push({ rel: 'next', href: next.href });
    }
    const format = options.jsonOnly ? 'json' : accept.includes('xml') ? 'xml' : accept.includes('bibtex') ? 'bibtex' : 'json';
    const body = format === 'xml' ? recordsToXml(lit, slice) : format === 'bibtex' ? recordsToBibtex(slice, 'OSTI') : JSON.stringify(slice);
    const type = { xml: 'application/xml', bibtex: 'application/x-bibtex', json: 'application/json' }[format];
    return new Response(body, {
      status: 200,
      headers: {
        'Content-Type': `${type}; charset=utf-8`,
        'X-Total-Count': String(options.claimedTotal ?? total),
        ...(links.length ? { Link: formatLinkHeader(links) } : {}),
      },
    });
  }) as typeof globalThis.fetch;
  return { fetch, requests };
}

const serverError = () =>
  new Response(JSON.stringify({ statusCode: 500, statusMessage: 'Internal Error', errorDescription: 'Try later.' }), {
    status: 500,
    headers: { 'Content-Type': 'application/json' },
  });

/** What fetch does when the connection fails: it rejects. */
const networkFailure = (): Response => {
  throw new TypeError('fetch failed');
};

async function download(
  server: ReturnType<typeof fakeServer>,
  format: ExportFormatId,
  options: { cap?: number; bom?: boolean; hooks?: Partial<DownloadHooks>; searchUrl?: string } = {},
) {
  const chunks: string[] = [];
  const sleeps: number[] = [];
  const retries: number[] = [];
  const outcome = await downloadResultSet(
    {
      deployment: lit,
      searchUrl: options.searchUrl ?? `${base}/records?q=wind&rows=20&page=3`,
      format,
      cap: options.cap,
      bom: options.bom,
    },
    {
      fetch: server.fetch,
      write: (chunk) => {
        chunks.push(chunk);
      },
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      onRetry: ({ attempt }) => retries.push(attempt),
      ...options.hooks,
    },
  );
  return { outcome, text: chunks.join(''), chunks, sleeps, retries };
}

describe('firstPageUrl', () => {
  it('asks for page 1 at the deployment’s largest page size, keeping the criteria', () => {
    expect(firstPageUrl(lit, `${base}/records?q=solar%20cell&rows=20&page=7&sort=title`)).toBe(
      `${base}/records?q=solar+cell&rows=1000&sort=title`,
    );
  });
});

describe('downloadResultSet', () => {
  const records = makeRecords(2345);

  it('follows rel="next" to the last page and writes one CSV with one header', async () => {
    const server = fakeServer({ records });
    const { outcome, text, chunks } = await download(server, 'csv');
    expect(outcome).toEqual({ status: 'complete', written: 2345, total: 2345, capped: false });
    expect(text).toBe(recordsToCsv(lit, records));
    // Written as it went: a chunk per page, then the (empty) closing.
    expect(chunks.filter(Boolean)).toHaveLength(3);
    expect(server.requests.map((request) => new URL(request.url).search)).toEqual([
      '?q=wind&rows=1000',
      '?q=wind&rows=1000&cursor=2',
      '?q=wind&rows=1000&cursor=3',
    ]);
    expect(server.requests.every((request) => request.accept === 'application/json')).toBe(true);
  });

  it('starts a CSV with a byte order mark when asked', async () => {
    const { text } = await download(fakeServer({ records: records.slice(0, 3) }), 'csv', { bom: true });
    expect(text).toBe(recordsToCsv(lit, records.slice(0, 3), { bom: true }));
  });

  it('joins the server’s XML pages into the one document the server would send', async () => {
    const server = fakeServer({ records });
    const { outcome, text } = await download(server, 'xml');
    expect(outcome.status).toBe('complete');
    expect(XMLValidator.validate(text)).toBe(true);
    expect(text).toBe(recordsToXml(lit, records));
    expect(server.requests.every((request) => request.accept === 'application/xml')).toBe(true);
  });

  it('joins JSON pages into one array', async () => {
    const { text } = await download(fakeServer({ records }), 'json');
    expect(JSON.parse(text)).toEqual(records);
  });

  it('joins the server’s BibTeX pages, which parse back to every record', async () => {
    const server = fakeServer({ records: records.slice(0, 1500) });
    const { text } = await download(server, 'bibtex');
    expect(text).toBe(recordsToBibtex(records.slice(0, 1500), 'OSTI'));
    const parsed = new Cite(text).data as { id: string; title: string }[];
    expect(parsed).toHaveLength(1500);
    expect(parsed[1499]).toMatchObject({ id: 'OSTI_1500', title: records[1499]!.title });
  });

  it('writes RIS with a TY and an ER for every record, and CSL-JSON with an item for each', async () => {
    const ris = (await download(fakeServer({ records }), 'ris')).text;
    expect(ris.match(/^TY {2}- /gm)).toHaveLength(2345);
    expect(ris.match(/^ER {2}- /gm)).toHaveLength(2345);
    const csl = JSON.parse((await download(fakeServer({ records }), 'csl-json')).text) as { id: string }[];
    expect(csl.map((item) => item.id)).toEqual(records.map((record) => `lit-${record.repo_id}`));
  });

  it('writes full BibTeX from the JSON pages, an entry for each record that reads back', async () => {
    const { text } = await download(fakeServer({ records }), 'bibtex-full');
    expect(text).toBe(recordsToFullBibtex(lit, records, 'records'));
    const parsed = new Cite(text).data as { id: string }[];
    expect(parsed.map((item) => item.id)).toEqual(records.map((record) => `records_${record.repo_id}`));
    expect((await download(fakeServer({ records: [] }), 'bibtex-full')).text).toBe('');
  });

  it('writes a valid empty file for a search without results', async () => {
    const empty = fakeServer({ records: [] });
    expect(JSON.parse((await download(empty, 'json')).text)).toEqual([]);
    expect((await download(empty, 'xml')).text).toBe(recordsToXml(lit, []));
    expect((await download(empty, 'csv')).text).toBe(recordsToCsv(lit, []));
    expect(JSON.parse((await download(empty, 'csl-json')).text)).toEqual([]);
  });

  it('retries a failing page with growing waits, then carries on', async () => {
    const server = fakeServer({ records, failures: { 2: [serverError, networkFailure] } });
    const { outcome, text, sleeps, retries } = await download(server, 'csv');
    expect(outcome.status).toBe('complete');
    expect(text).toBe(recordsToCsv(lit, records));
    expect(retries).toEqual([1, 2]);
    expect(sleeps).toEqual([1000, 3000]);
  });

  it('gives up after three retries and says the download is incomplete, leaving a valid file', async () => {
    const server = fakeServer({ records, failures: { 2: [serverError, serverError, serverError, serverError] } });
    const { outcome, text, sleeps } = await download(server, 'json');
    expect(outcome).toEqual({ status: 'incomplete', written: 1000, total: 2345, reason: 'Try later.' });
    expect(sleeps).toEqual([1000, 3000, 9000]);
    expect(server.requests.filter((request) => request.url.includes('cursor=2'))).toHaveLength(4);
    // The part written is still one well-formed JSON array of the first page.
    expect(JSON.parse(text)).toEqual(records.slice(0, 1000));
    const xml = await download(fakeServer({ records, failures: { 3: Array(4).fill(serverError) } }), 'xml');
    expect(xml.outcome).toMatchObject({ status: 'incomplete', written: 2000 });
    expect(XMLValidator.validate(xml.text)).toBe(true);
  });

  it('does not retry what a retry cannot fix (a 404)', async () => {
    const notFound = () => new Response('{"statusCode":404,"statusMessage":"Not Found","errorDescription":"Gone."}', { status: 404 });
    const server = fakeServer({ records, failures: { 2: [notFound] } });
    const { outcome, sleeps } = await download(server, 'csv');
    expect(outcome).toMatchObject({ status: 'incomplete', written: 1000, reason: 'Gone.' });
    expect(sleeps).toEqual([]);
  });

  it('falls back to the server’s default page size when it refuses rows=1000', async () => {
    const server = fakeServer({ records: records.slice(0, 50), maxRows: 100 });
    const { outcome, text } = await download(server, 'csv');
    expect(outcome).toMatchObject({ status: 'complete', written: 50 });
    expect(text).toBe(recordsToCsv(lit, records.slice(0, 50)));
    expect(server.requests.map((request) => new URL(request.url).search)).toEqual([
      '?q=wind&rows=1000',
      '?q=wind',
      '?q=wind&cursor=2',
      '?q=wind&cursor=3',
    ]);
  });

  it('stops at the cap, exactly, and says so', async () => {
    const server = fakeServer({ records });
    const { outcome, text } = await download(server, 'csv', { cap: 1500 });
    expect(outcome).toEqual({ status: 'complete', written: 1500, total: 2345, capped: true });
    expect(text).toBe(recordsToCsv(lit, records.slice(0, 1500)));
    expect(server.requests).toHaveLength(2);
    const xml = await download(fakeServer({ records }), 'xml', { cap: 1500 });
    expect(xml.text).toBe(recordsToXml(lit, records.slice(0, 1500)));
  });

  it('makes no request after Cancel', async () => {
    const controller = new AbortController();
    const server = fakeServer({ records });
    let writes = 0;
    const { outcome } = await download(server, 'csv', {
      hooks: {
        signal: controller.signal,
        write: () => {
          writes += 1;
          if (writes === 2) controller.abort();
        },
      },
    });
    // The second page was already handed over when Cancel came; the third is never asked for.
    expect(outcome).toEqual({ status: 'cancelled', written: 2000, total: 2345 });
    expect(server.requests).toHaveLength(2);
  });

  it('cancels during a wait between retries without another attempt', async () => {
    const controller = new AbortController();
    const server = fakeServer({ records, failures: { 1: [serverError, serverError] } });
    const { outcome } = await download(server, 'csv', {
      hooks: {
        signal: controller.signal,
        sleep: async () => {
          controller.abort();
          throw controller.signal.reason;
        },
      },
    });
    expect(outcome.status).toBe('cancelled');
    expect(server.requests).toHaveLength(1);
  });

  it('reports a download as incomplete when the server stops linking before its announced total', async () => {
    const { outcome } = await download(fakeServer({ records, lastLinkedPage: 2 }), 'csv');
    expect(outcome).toEqual({
      status: 'incomplete',
      written: 2000,
      total: 2345,
      reason: 'The server ended the results before the count it announced.',
    });
  });

  it('refuses to save a server’s JSON as XML when it ignores Accept', async () => {
    const { outcome, text } = await download(fakeServer({ records, jsonOnly: true }), 'xml');
    expect(outcome).toMatchObject({ status: 'incomplete', written: 0 });
    expect(outcome.status === 'incomplete' && outcome.reason).toMatch(/expected XML, received application\/json/);
    expect(XMLValidator.validate(text)).toBe(true);
  });

  it('reports progress page by page against the announced total', async () => {
    const progress: unknown[] = [];
    await download(fakeServer({ records }), 'ris', { hooks: { onProgress: (value) => progress.push(value) } });
    expect(progress).toEqual([
      { written: 1000, expected: 2345, total: 2345 },
      { written: 2000, expected: 2345, total: 2345 },
      { written: 2345, expected: 2345, total: 2345 },
    ]);
  });
});
