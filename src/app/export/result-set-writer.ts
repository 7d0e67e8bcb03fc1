import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { cslItemsToJson, cslJsonClosing, cslJsonOpening, cslJsonSeparator, recordsToCsl } from '../../formats/csl';
import { csvHeader, csvRow } from '../../formats/csv';
import { recordToFullBibtex } from '../../formats/bibtex-full';
import { recordsToRis } from '../../formats/ris';
import {
  bibtexEntryKey,
  generatedBibtexKeys,
  markBibtexEntry,
  markJsonItem,
  markXmlRecord,
  noGeneratedIds,
  xmlRecordId,
  type GeneratedIds,
} from '../../formats/generated-mark';
import { defaultXmlPrologue } from './page-split';
import type { ExportFormatId } from './export-formats';

/**
 * One output file written page by page: each page becomes a chunk that can go to disk
 * straight away, and the chunks together form one document — one CSV header, one JSON
 * array, one `<records>` root — whatever the number of pages.
 */

/**
 * A page's records in the form its format needs, with the page's generated demo records
 * (its X-Generated-Records header), which every format marks (generated-mark.ts).
 */
export type PageUnits = (
  | { readonly kind: 'records'; readonly records: readonly ApiRecord[]; readonly raw: readonly unknown[] }
  | { readonly kind: 'xml'; readonly prologue: string; readonly records: readonly string[] }
  | { readonly kind: 'bibtex'; readonly entries: readonly string[] }
) & { readonly generated?: GeneratedIds };

const generatedOf = (units: PageUnits) => units.generated ?? noGeneratedIds;

export function unitCount(units: PageUnits): number {
  return units.kind === 'bibtex' ? units.entries.length : units.records.length;
}

/** The first `count` records of a page (a download stops exactly at its cap). */
export function takeUnits(units: PageUnits, count: number): PageUnits {
  if (units.kind === 'records') return { ...units, records: units.records.slice(0, count), raw: units.raw.slice(0, count) };
  if (units.kind === 'xml') return { ...units, records: units.records.slice(0, count) };
  return { ...units, entries: units.entries.slice(0, count) };
}

export interface ResultSetWriter {
  /** The chunk for one page (the file's opening included on the first). */
  page(units: PageUnits): string;
  /** The file's closing; for a download that got no records, a valid empty file. */
  end(): string;
}

export interface WriterOptions {
  readonly bom?: boolean;
}

/** Opening, item separator and closing of a format that wraps its records. */
function wrapped(opening: () => string, separator: string, closing: string, items: (units: PageUnits) => string[]): ResultSetWriter {
  let started = false;
  let written = 0;
  return {
    page(units) {
      const parts = items(units);
      let chunk = started ? '' : opening();
      started = true;
      if (parts.length) chunk += (written > 0 ? separator : '') + parts.join(separator);
      written += parts.length;
      return chunk;
    },
    end() {
      return (started ? '' : opening()) + closing;
    },
  };
}

function recordsOf(units: PageUnits): readonly ApiRecord[] {
  if (units.kind !== 'records') throw new Error(`expected JSON records, got a ${units.kind} page`);
  return units.records;
}

export function createResultSetWriter(deployment: Deployment, format: ExportFormatId, options: WriterOptions = {}): ResultSetWriter {
  switch (format) {
    case 'csv': {
      let started = false;
      const header = () => {
        if (started) return '';
        started = true;
        return csvHeader(deployment, { bom: options.bom });
      };
      return {
        page: (units) =>
          header() +
          recordsOf(units)
            .map((record) => csvRow(deployment, record, generatedOf(units).has(record.repo_id)))
            .join(''),
        end: () => header(),
      };
    }
    case 'bibtex-full':
      // The local server's key prefix, as the API's BibTeX download has by default.
      return wrapped(
        () => '',
        '\n',
        '',
        (units) =>
          recordsOf(units).map((record) => recordToFullBibtex(deployment, record, 'records', generatedOf(units).has(record.repo_id))),
      );
    case 'ris':
      return { page: (units) => recordsToRis(deployment, recordsOf(units), generatedOf(units)), end: () => '' };
    case 'csl-json': {
      const writer = wrapped(
        () => cslJsonOpening,
        cslJsonSeparator,
        cslJsonClosing,
        (units) => {
          const body = cslItemsToJson(recordsToCsl(deployment, recordsOf(units), generatedOf(units)));
          return body ? [body] : [];
        },
      );
      return writer;
    }
    case 'json':
      // The server's items as it sent them (not as validated, which may coerce an id).
      return wrapped(
        () => '[',
        ',',
        ']',
        (units) => {
          if (units.kind !== 'records') throw new Error(`expected JSON records, got a ${units.kind} page`);
          return units.raw.map((item) => JSON.stringify(markJsonItem(item, generatedOf(units))));
        },
      );
    case 'xml': {
      let prologue = defaultXmlPrologue;
      const writer = wrapped(
        () => prologue,
        '\n',
        '</records>\n',
        (units) => {
          if (units.kind !== 'xml') throw new Error(`expected an XML page, got ${units.kind}`);
          const generated = generatedOf(units);
          if (generated.size === 0) return [...units.records];
          return units.records.map((record) => (generated.has(xmlRecordId(deployment, record) ?? '') ? markXmlRecord(record) : record));
        },
      );
      return {
        page(units) {
          if (units.kind === 'xml') prologue = units.prologue;
          return writer.page(units);
        },
        end: () => writer.end(),
      };
    }
    case 'bibtex':
      return wrapped(
        () => '',
        '\n',
        '',
        (units) => {
          if (units.kind !== 'bibtex') throw new Error(`expected a BibTeX page, got ${units.kind}`);
          const isGenerated = generatedBibtexKeys(generatedOf(units));
          return units.entries.map((entry) => (isGenerated(bibtexEntryKey(entry) ?? '') ? markBibtexEntry(entry) : entry));
        },
      );
  }
}
