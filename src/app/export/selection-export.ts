import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { exportFormat, type ExportFormatId } from './export-formats';
import { selectionFileName } from './file-names';
import type { ExportFile } from './record-export';
import { recordsOutput, type OutputOptions } from './records-output';

/** Selected records as one file, made in the browser from the records kept with the selection. */
export function exportSelection(
  deployment: Deployment,
  records: readonly ApiRecord[],
  formatId: ExportFormatId,
  options: OutputOptions = {},
): ExportFile {
  const format = exportFormat(formatId);
  return {
    blob: new Blob([recordsOutput(deployment, records, formatId, options)], { type: format.mimeType }),
    fileName: selectionFileName(deployment, records.length, formatId),
  };
}
