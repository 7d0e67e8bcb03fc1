/**
 * Files the app hands to the browser's downloads, read back and checked the way another
 * program would read them: CSV by RFC 4180, XML by a validating parser, BibTeX by
 * citation-js. Downloads are also kept in e2e/downloads/ (gitignored) for a look by hand.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Download, Page, Route } from 'playwright-core';

export const downloadDir = resolve(dirname(fileURLToPath(import.meta.url)), '../downloads');

export interface DownloadedFile {
  /** The name the app suggested (`<a download>`). */
  readonly name: string;
  readonly text: string;
}

/** Reads a finished download as UTF-8 text and keeps a copy in e2e/downloads/. */
export async function readDownload(download: Download): Promise<DownloadedFile> {
  const failure = await download.failure();
  if (failure) throw new Error(`download ${download.suggestedFilename()} failed: ${failure}`);
  const name = download.suggestedFilename();
  await mkdir(downloadDir, { recursive: true });
  await download.saveAs(join(downloadDir, name.replace(/[^\w.-]+/g, '_')));
  return { name, text: await readFile(await download.path(), 'utf8') };
}

/** Runs an action that should start a download and returns the downloaded file. */
export async function downloadFrom(page: Page, action: () => Promise<unknown>, timeout = 30_000): Promise<DownloadedFile> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout }), action()]);
  return readDownload(download);
}

export interface CsvFile {
  readonly bom: boolean;
  readonly header: string[];
  readonly rows: string[][];
}

/**
 * A strict RFC 4180 reader: records end with CRLF (the last one may not), fields are
 * separated by commas, a field with a quote, comma, CR or LF must be quoted and its quotes
 * doubled. Anything else throws, so a file this accepts opens the same in any reader.
 */
export function parseCsv(text: string): CsvFile {
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  const where = () => `at offset ${i} (record ${records.length + 1})`;
  while (i < body.length) {
    if (body[i] === '"') {
      // A quoted field: up to the quote that is not doubled.
      i += 1;
      for (;;) {
        const quote = body.indexOf('"', i);
        if (quote < 0) throw new Error(`CSV: unterminated quoted field ${where()}`);
        field += body.slice(i, quote);
        if (body[quote + 1] === '"') {
          field += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      if (i < body.length && body[i] !== ',' && !body.startsWith('\r\n', i)) {
        throw new Error(`CSV: ${JSON.stringify(body[i])} after a closing quote ${where()}`);
      }
    } else {
      const end = body.slice(i).search(/,|\r\n/);
      const stop = end < 0 ? body.length : i + end;
      const raw = body.slice(i, stop);
      if (/["\r\n]/.test(raw))
        throw new Error(`CSV: unquoted field holds a quote or a bare line break ${where()}: ${JSON.stringify(raw.slice(0, 60))}`);
      field += raw;
      i = stop;
    }
    record.push(field);
    field = '';
    if (body[i] === ',') {
      i += 1;
      // A comma at the very end still opens an (empty) last field.
      if (i === body.length) record.push('');
    } else {
      // CRLF or the end of the text closes the record.
      records.push(record);
      record = [];
      if (i < body.length) i += 2;
    }
  }
  const [header, ...rows] = records;
  if (!header) throw new Error('CSV: the file is empty (no header row)');
  rows.forEach((row, index) => {
    if (row.length !== header.length) throw new Error(`CSV: row ${index + 1} has ${row.length} fields, the header ${header.length}`);
  });
  return { bom, header, rows };
}

/** A CSV row as an object keyed by the header's column names. */
export function csvObjects(csv: CsvFile): Record<string, string>[] {
  return csv.rows.map((row) => Object.fromEntries(csv.header.map((name, index) => [name, row[index]!])));
}

export type XmlRecord = Record<string, unknown>;

/** Checks that the text is well-formed XML with a `records` root and returns its `record` elements. */
export function parseRecordsXml(text: string): XmlRecord[] {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`XML is not well-formed: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: (_name, jpath) => jpath === 'records.record',
  });
  const document = parser.parse(text) as { records?: { record?: XmlRecord[] } | '' };
  if (document.records === undefined) throw new Error('XML has no records root element');
  return document.records === '' ? [] : (document.records.record ?? []);
}

/** CSL-JSON of each BibTeX entry, as citation-js reads the text. */
export function parseBibtex(text: string): Record<string, unknown>[] {
  return new Cite(text).data;
}

/** Letters and digits only, lower case: compares a title however a style cases and punctuates it. */
export function looseText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Whether `haystack` contains `needle`, ignoring case, punctuation, quotes and spacing. */
export function containsLoosely(haystack: string, needle: string): boolean {
  return looseText(haystack).includes(looseText(needle));
}

/**
 * Holds requests to a path until the test lets each page through: progress and Cancel can
 * then be observed at a known point instead of racing the server.
 */
export interface PageGates {
  /** URLs of the held path requested so far, in order. */
  readonly requested: string[];
  /** Lets page n (1-based, by the `page` parameter) through, now or when it is requested. */
  open(n: number): void;
  /** Lets every page through from now on. */
  openAll(): void;
}

export async function gatePages(page: Page, pathname: string, matches: (url: URL) => boolean = () => true): Promise<PageGates> {
  const requested: string[] = [];
  const gates = new Map<number, { promise: Promise<void>; resolve: () => void }>();
  let allOpen = false;
  const gate = (n: number) => {
    let entry = gates.get(n);
    if (!entry) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      entry = { promise, resolve };
      if (allOpen) resolve();
      gates.set(n, entry);
    }
    return entry;
  };
  await page.route(
    (url) => url.pathname === pathname && matches(url),
    async (route: Route) => {
      const target = new URL(route.request().url());
      requested.push(target.href);
      await gate(Number(target.searchParams.get('page') ?? '1')).promise;
      // The request may be gone by now (Cancel ends it with the worker): nothing to continue.
      await route.continue().catch(() => {});
    },
  );
  return {
    requested,
    open: (n) => gate(n).resolve(),
    openAll() {
      allOpen = true;
      for (const entry of gates.values()) entry.resolve();
    },
  };
}
