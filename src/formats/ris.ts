import type { ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { isEtAl, parseAuthor } from './authors';
import { issuerOf } from './citation-meta';
import { citationUrl, citedPublisher, organisations, recordNumber, recordNumberLabel } from './csl';
import { workKind, type WorkKind } from './work-kinds';
import { dayOfTimestamp } from './dates';
import { toPlainLine } from './rich-text';
import { generatedNote, noGeneratedIds, type GeneratedIds } from './generated-mark';
import { firstKnown, knownValues } from './known-values';
import { bareDoi } from './text';

/**
 * Records as RIS, the tagged format every reference manager imports. Each line is
 * `XX  - value` ending in CRLF; a record starts with TY and ends with ER, and records are
 * separated by a blank line. RIS is line-based, so line breaks inside values become spaces.
 */

export const risLineEnd = '\r\n';

const risTypeOfKind: Record<WorkKind, string> = {
  'journal-article': 'JOUR',
  'book-chapter': 'CHAP',
  book: 'BOOK',
  thesis: 'THES',
  'conference-paper': 'CONF',
  patent: 'PAT',
  report: 'RPRT',
  dataset: 'DATA',
  software: 'COMP',
  video: 'VIDEO',
  audio: 'SOUND',
  presentation: 'SLIDE',
  webpage: 'ELEC',
  other: 'GEN',
};

export function risType(kind: WorkKind): string {
  return risTypeOfKind[kind];
}

const controlChars = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** One line of plain text: entities decoded, markup gone (the text model). */
function risValue(value: string): string {
  return toPlainLine(value.replace(controlChars, ''));
}

export function risLine(tag: string, value: string): string {
  return `${tag}  - ${value}${risLineEnd}`;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

const labelled = (label: string, value: string | undefined) => (value ? `${label}: ${value}` : undefined);

/**
 * Where a record's report, patent or product number goes. RIS reads SN as a report's or a
 * patent's number and NV as a dataset's identifier; M1 means something else for each type
 * (a journal article's issue, a book's series number, a program's system), so a number with
 * no tag of its own is written to M2, which reference managers keep as a note line (Zotero's Extra).
 */
function numberEntries(deployment: Deployment, record: ApiRecord, kind: WorkKind): [string, string | undefined][] {
  const number = recordNumber(deployment, record);
  if (!number) return [];
  if (kind === 'report' || kind === 'patent') return [['SN', number]];
  if (kind === 'dataset') return [['NV', number]];
  return [['M2', labelled(recordNumberLabel(deployment, record) ?? 'Number', number)]];
}

/** The tag/value pairs of one record, in the order reference managers write them. */
export function risEntries(deployment: Deployment, record: ApiRecord, generated = false, origin?: string): [string, string][] {
  const kind = workKind(deployment, record);
  const entries: [string, string | undefined][] = [];
  const add = (tag: string, value: unknown) => {
    for (const item of knownValues(value)) entries.push([tag, risValue(item)]);
  };
  entries.push(['TY', risType(kind)]);
  add('ID', `${deployment.slug}-${record.repo_id}`);
  add('TI', firstKnown(record.title));
  // RIS has no way to say a list goes on: "et al." is no author.
  const persons = knownValues(record.authors)
    .filter((raw) => !isEtAl(raw))
    .map((raw) => parseAuthor(raw))
    .filter((name) => name.family)
    .map(({ family, given }) => (given ? `${family}, ${given}` : family));
  // With no person credited the research organisation is the (corporate) author, as in CSL.
  add('AU', persons.length > 0 ? persons : organisations(deployment, record, 'research'));
  const day = dayOfTimestamp(firstKnown(record.publication_date));
  if (day) {
    add('PY', pad(day.year, 4));
    add('DA', `${pad(day.year, 4)}/${pad(day.month)}/${pad(day.day)}/`);
  }
  add('AB', firstKnown(record.description));
  const doi = firstKnown(record.doi);
  if (doi) add('DO', bareDoi(doi));
  add('UR', citationUrl(deployment, record, origin));
  // PB is the institution of a report, the repository of a dataset, the university of a thesis.
  add('PB', kind === 'thesis' ? issuerOf(deployment, record, kind) : citedPublisher(deployment, record));
  add('CY', firstKnown(record.country_publication));
  add('KW', record.subjects);
  add('JO', firstKnown(record.journal_name));
  add('VL', firstKnown(record.journal_volume));
  add('IS', firstKnown(record.journal_issue));
  for (const [tag, value] of numberEntries(deployment, record, kind)) add(tag, value);
  // Zotero reads LA as a program's programming language; a program's human language has no field there.
  add(
    kind === 'software' ? 'M2' : 'LA',
    kind === 'software' ? labelled('Language', firstKnown(record.language)) : firstKnown(record.language),
  );
  if (generated) add('N1', generatedNote);
  return entries.filter((entry): entry is [string, string] => Boolean(entry[1]));
}

/** One record; given the origin it is served from (unAPI), UR is never left out. */
export function recordToRis(deployment: Deployment, record: ApiRecord, generated = false, origin?: string): string {
  return risEntries(deployment, record, generated, origin)
    .map(([tag, value]) => risLine(tag, value))
    .join('')
    .concat(`ER  - ${risLineEnd}`);
}

/** Every record followed by a blank line, so pages of a download concatenate as they are. */
export function recordsToRis(deployment: Deployment, records: readonly ApiRecord[], generated: GeneratedIds = noGeneratedIds): string {
  return records.map((record) => recordToRis(deployment, record, generated.has(record.repo_id)) + risLineEnd).join('');
}
