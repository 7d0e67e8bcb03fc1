import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { recordsToBibtex } from '../../formats/bibtex';
import { recordsToFullBibtex } from '../../formats/bibtex-full';
import { recordsToCslJson } from '../../formats/csl';
import { recordsToCsv } from '../../formats/csv';
import { recordsToRis } from '../../formats/ris';
import { recordsToXml } from '../../formats/xml';
import { markJsonItem, noGeneratedIds, type GeneratedIds } from '../../formats/generated-mark';
import type { ExportFormatId } from './export-formats';

export interface OutputOptions {
  /** CSV only: start with a UTF-8 byte order mark for spreadsheet programs. */
  readonly bom?: boolean;
  /** BibTeX only: the citation key prefix (the local server's default when left out). */
  readonly bibtexPrefix?: string;
  /** Generated demo records among them: every format says so on each (generated-mark.ts). */
  readonly generated?: GeneratedIds;
}

/**
 * Records the app already holds (a selection) in any export format, with the same codecs
 * the local server uses, so no request is needed and a selection exports offline.
 */
export function recordsOutput(
  deployment: Deployment,
  records: readonly ApiRecord[],
  format: ExportFormatId,
  options: OutputOptions = {},
): string {
  const generated = options.generated ?? noGeneratedIds;
  switch (format) {
    case 'csv':
      return recordsToCsv(deployment, records, { bom: options.bom }, generated);
    case 'ris':
      return recordsToRis(deployment, records, generated);
    case 'csl-json':
      return recordsToCslJson(deployment, records, generated);
    case 'json':
      // The server's own JSON: one compact array.
      return JSON.stringify(records.map((record) => markJsonItem(record, generated)));
    case 'xml':
      return recordsToXml(deployment, records, generated);
    case 'bibtex':
      return recordsToBibtex(records, options.bibtexPrefix ?? 'records', generated);
    case 'bibtex-full':
      return recordsToFullBibtex(deployment, records, options.bibtexPrefix ?? 'records', generated);
  }
}
