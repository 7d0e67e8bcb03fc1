import type { ApiAuth } from '../../client/auth';
import { getText } from '../../client/http';
import { recordUrl } from '../../client/urls';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { markBibtexEntry, markJsonText, markXmlRecord } from '../../formats/generated-mark';
import type { ResponseFormat } from '../../formats/media-types';
import { exportFormat, type ExportFormatId } from './export-formats';
import { recordFileName } from './file-names';
import { recordsOutput } from './records-output';

export interface RecordExportRequest {
  readonly deployment: Deployment;
  readonly baseUrl: string;
  readonly record: ApiRecord;
  readonly format: ExportFormatId;
  /** A generated demo record: the file says so, whichever its format (generated-mark.ts). */
  readonly generated?: boolean;
  readonly signal?: AbortSignal;
  readonly fetch?: typeof fetch;
  /** A private mirror's token (config.json). */
  readonly auth?: ApiAuth | undefined;
}

export interface ExportFile {
  readonly blob: Blob;
  readonly fileName: string;
}

/**
 * One record as a file: the server's BibTeX, XML or JSON (fetched with Accept, byte for
 * byte but for the note a generated record gets), or CSV, RIS or CSL-JSON made here from the
 * record on screen.
 */
export async function exportRecord(request: RecordExportRequest): Promise<ExportFile> {
  const { deployment, record } = request;
  const format = exportFormat(request.format);
  const fileName = recordFileName(deployment, record.repo_id, format.id);
  if (format.source === 'browser') {
    const generated = new Set(request.generated ? [record.repo_id] : []);
    return { blob: new Blob([recordsOutput(deployment, [record], format.id, { generated })], { type: format.mimeType }), fileName };
  }
  const url = recordUrl(request.baseUrl, record.repo_id);
  const { text } = await getText(url, { format: format.request, signal: request.signal, fetch: request.fetch, auth: request.auth });
  return { blob: new Blob([request.generated ? markServerText(format.request, text) : text], { type: format.mimeType }), fileName };
}

const serverTextMarks: Record<ResponseFormat, (text: string) => string> = {
  bibtex: markBibtexEntry,
  xml: markXmlRecord,
  json: markJsonText,
};

function markServerText(format: ResponseFormat, text: string): string {
  return serverTextMarks[format](text);
}
