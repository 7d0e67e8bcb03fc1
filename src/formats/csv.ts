import type { ApiRecord } from '../deployments/registry';
import type { Deployment, FieldDef } from '../deployments/schema';
import { toPlainText } from './rich-text';
import { hasKnownValue, knownValues } from './known-values';
import { valuesOf } from './text';
import { generatedMember, generatedNote, noGeneratedIds, type GeneratedIds } from './generated-mark';

/**
 * Records as CSV (RFC 4180): CRLF after every line, a field quoted when it holds a quote,
 * comma, CR or LF, quotes inside doubled. One column per field of the deployment, named
 * as in JSON, so a file opens the same way whichever records it holds, and a last column
 * (`x_generated_note`) holding the note on a generated demo record (generated-mark.ts). The
 * header and the rows are separate functions so a download can write a file page by page.
 */

/** Spreadsheet programs read a file as UTF-8 only when it starts with this mark. */
export const utf8Bom = '\uFEFF';

export const csvLineEnd = '\r\n';

/** Several values in one cell: "; " is what the spec uses to join contract numbers. */
export const csvListSeparator = '; ';

/** Authors in one cell: " | ", because affiliations contain "; " and never "|". */
export const csvAuthorSeparator = ' | ';

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a leading
 * apostrophe, as OWASP recommends against CSV injection; removing that one apostrophe gives
 * the value back.
 */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function csvField(value: string): string {
  const cell = neutralizeFormula(value);
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function csvLine(values: readonly string[]): string {
  return values.map(csvField).join(',') + csvLineEnd;
}

export function csvColumns(deployment: Deployment): string[] {
  return [...deployment.fields.map((field) => field.name), generatedMember];
}

/** A record field as cell text: lists joined, links as "rel: href", empty as nothing. */
export function csvCell(field: FieldDef, value: unknown): string {
  if (field.kind === 'links') {
    const links = Array.isArray(value) ? (value as { rel?: unknown; href?: unknown }[]) : [];
    return links
      .filter((link) => link !== null && typeof link === 'object')
      .map((link) => `${String(link.rel ?? '')}: ${String(link.href ?? '')}`)
      .join(csvListSeparator);
  }
  if (!hasKnownValue(field, value)) return '';
  const values = field.kind === 'text' || field.kind === 'list' ? knownValues(value) : valuesOf(value);
  // Text is written as a reader sees it: entities decoded, markup gone (the text model).
  const text = field.kind === 'text' || field.kind === 'list' ? values.map(toPlainText) : values;
  return text.join(field.name === 'authors' ? csvAuthorSeparator : csvListSeparator);
}

export interface CsvOptions {
  /** Start with a UTF-8 byte order mark, for spreadsheet programs. */
  readonly bom?: boolean;
}

export function csvHeader(deployment: Deployment, options: CsvOptions = {}): string {
  return (options.bom ? utf8Bom : '') + csvLine(csvColumns(deployment));
}

export function csvRow(deployment: Deployment, record: ApiRecord, generated = false): string {
  return csvLine([...deployment.fields.map((field) => csvCell(field, record[field.name])), generated ? generatedNote : '']);
}

export function recordsToCsv(
  deployment: Deployment,
  records: readonly ApiRecord[],
  options: CsvOptions = {},
  generated: GeneratedIds = noGeneratedIds,
): string {
  return csvHeader(deployment, options) + records.map((record) => csvRow(deployment, record, generated.has(record.repo_id))).join('');
}
