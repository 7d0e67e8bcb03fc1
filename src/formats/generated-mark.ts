import type { ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { canonicalOrcid } from './authors';
import { escapeXml } from './text';

/**
 * The one rule for generated demo records: a record is generated when the server that
 * served it says so (the local server's X-Record-Origin and X-Generated-Records
 * extensions), and every file, citation and list the app and unAPI make of it says so too — in
 * the field each format keeps for notes (BibTeX `note`, RIS `N1`, CSL-JSON `note`, MODS
 * `note`, Zotero RDF's Extra), and in an
 * added member, element or column where a format has none (JSON, XML, CSV).
 */
export const generatedNote = 'Generated demo record: its text and identifiers (DOI, ORCID iDs, numbers) are made up and cite nothing real.';

/** The short form, beside a title in a list or a citation on screen. */
export const generatedLabel = 'Generated demo record';

/** Identifiers of the generated records among some records; empty when none is. */
export type GeneratedIds = ReadonlySet<string>;

export const noGeneratedIds: GeneratedIds = new Set();

export function isGenerated(generated: GeneratedIds, record: Pick<ApiRecord, 'repo_id'>): boolean {
  return generated.has(String(record.repo_id));
}

/** The generated ones among some records, in their order: what a notice names. */
export function generatedAmong<T extends Pick<ApiRecord, 'repo_id'>>(records: readonly T[], generated: GeneratedIds): T[] {
  return generated.size === 0 ? [] : records.filter((record) => isGenerated(generated, record));
}

/**
 * The member (JSON), element (XML) and column (CSV) the app adds to files it writes, holding
 * `generatedNote` on a generated record (empty elsewhere in CSV, absent in JSON and XML).
 * The API's own answers never carry it: the record stays exactly what the spec defines.
 */
export const generatedMember = 'x_generated_note';

/** A JSON record item with the note added when it is a generated record. */
export function markJsonItem(item: unknown, generated: GeneratedIds): unknown {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
  const id = (item as { repo_id?: unknown }).repo_id;
  return id !== undefined && generated.has(String(id)) ? { ...item, [generatedMember]: generatedNote } : item;
}

/** One record's JSON text (an object) with the note added, its other bytes kept. */
export function markJsonText(text: string): string {
  const end = text.lastIndexOf('}');
  if (end < 0) return text;
  const empty = /^\s*\{\s*$/.test(text.slice(0, end));
  return `${text.slice(0, end)}${empty ? '' : ','}${JSON.stringify(generatedMember)}:${JSON.stringify(generatedNote)}${text.slice(end)}`;
}

const xmlEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, name: string) => {
    if (name[0] !== '#') return xmlEntities[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The identifier of a `<record>` element as the server wrote it (its `repo_id` child). */
export function xmlRecordId(deployment: Deployment, recordXml: string): string | undefined {
  const field = deployment.fields.find((candidate) => candidate.name === 'repo_id');
  const element = field?.xml ?? 'repo_id';
  const open = `<${element}>`;
  const start = recordXml.indexOf(open);
  if (start < 0) return undefined;
  const end = recordXml.indexOf(`</${element}>`, start);
  return end < 0 ? undefined : unescapeXml(recordXml.slice(start + open.length, end)).trim();
}

/** A `<record>` element (or a document ending with one) with the note as its last child. */
export function markXmlRecord(recordXml: string): string {
  const note = `<${generatedMember}>${escapeXml(generatedNote)}</${generatedMember}>`;
  const end = recordXml.lastIndexOf('</record>');
  if (end >= 0) return recordXml.slice(0, end) + note + recordXml.slice(end);
  const empty = /<record(\s[^>]*)?\/>/.exec(recordXml);
  if (!empty) return recordXml;
  return `${recordXml.slice(0, empty.index)}<record${empty[1] ?? ''}>${note}</record>${recordXml.slice(empty.index + empty[0].length)}`;
}

/** The BibTeX note field as a line of an entry (the note holds no TeX specials). */
export const bibtexNoteLine = `  note = {${generatedNote}}`;

/** An entry as the server wrote it (`@type{key,\n  field = {…}\n}`), with the note as its last field. */
export function markBibtexEntry(entry: string): string {
  if (/^\s*note\s*=/m.test(entry)) return entry;
  const close = entry.lastIndexOf('}');
  if (close < 0) return entry;
  const body = entry.slice(0, close).replace(/\s+$/, '');
  const separator = /[{,]$/.test(body) ? '\n' : ',\n';
  return `${body}${separator}${bibtexNoteLine}\n${entry.slice(close)}`;
}

/** The citation key of an entry (`@misc{records_123,` → `records_123`). */
export function bibtexEntryKey(entry: string): string | undefined {
  return /^\s*@[A-Za-z]+\s*[{(]\s*([^,\s]+)\s*,/.exec(entry)?.[1];
}

/**
 * Which BibTeX keys name one of the generated records: keys are `prefix_id` with characters
 * outside `[A-Za-z0-9_.:-]` made `_` (bibtex.ts), whatever the server's prefix.
 */
export function generatedBibtexKeys(generated: GeneratedIds): (key: string) => boolean {
  const ids = new Set([...generated].map((id) => id.replace(/[^A-Za-z0-9_.:-]/g, '_')));
  return (key) => {
    if (ids.size === 0) return false;
    for (let at = key.indexOf('_'); at >= 0; at = key.indexOf('_', at + 1)) if (ids.has(key.slice(at + 1))) return true;
    return false;
  };
}

/**
 * ORCID issues no iD below 0000-0001-5000-0007, so one below it (the generator's
 * `0000-0000-…`) is nobody's: shown as text, never linked to orcid.org.
 */
export function isIssuableOrcid(id: string): boolean {
  const canonical = canonicalOrcid(id);
  if (!canonical) return false;
  return canonical.replace(/-/g, '').slice(0, 15) >= '000000015000000';
}
