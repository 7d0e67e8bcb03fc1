import { z } from 'zod';
import { contentTypes, type ResponseFormat } from '../../formats/media-types';

/**
 * The export formats. BibTeX, XML and JSON are the server's own representations, fetched
 * with the Accept header so a download is exactly what the server negotiates; CSV, RIS and
 * CSL-JSON are made in the browser from the JSON records.
 */

export const exportFormatIds = ['bibtex', 'bibtex-full', 'xml', 'json', 'csv', 'ris', 'csl-json'] as const;
export const exportFormatSchema = z.enum(exportFormatIds);
export type ExportFormatId = z.infer<typeof exportFormatSchema>;

export interface ExportFormat {
  readonly id: ExportFormatId;
  readonly label: string;
  /** File name extension, without the dot. */
  readonly extension: string;
  readonly mimeType: string;
  /** The representation the server is asked for: this format itself, or JSON to convert. */
  readonly request: ResponseFormat;
  readonly source: 'server' | 'browser';
}

export const exportFormats: readonly ExportFormat[] = [
  { id: 'bibtex', label: 'BibTeX', extension: 'bib', mimeType: contentTypes.bibtex, request: 'bibtex', source: 'server' },
  // Made here from the JSON: typed entries (@article, @techreport, ...), full names, url (bibtex-full.ts).
  { id: 'bibtex-full', label: 'BibTeX (full)', extension: 'full.bib', mimeType: contentTypes.bibtex, request: 'json', source: 'browser' },
  { id: 'xml', label: 'XML', extension: 'xml', mimeType: contentTypes.xml, request: 'xml', source: 'server' },
  { id: 'json', label: 'JSON', extension: 'json', mimeType: contentTypes.json, request: 'json', source: 'server' },
  // RFC 4180 registers text/csv with an optional header parameter.
  { id: 'csv', label: 'CSV', extension: 'csv', mimeType: 'text/csv; charset=utf-8; header=present', request: 'json', source: 'browser' },
  { id: 'ris', label: 'RIS', extension: 'ris', mimeType: 'application/x-research-info-systems', request: 'json', source: 'browser' },
  {
    id: 'csl-json',
    label: 'CSL-JSON',
    extension: 'csl.json',
    mimeType: 'application/vnd.citationstyles.csl+json',
    request: 'json',
    source: 'browser',
  },
];

export function exportFormat(id: ExportFormatId): ExportFormat {
  return exportFormats.find((format) => format.id === id)!;
}
