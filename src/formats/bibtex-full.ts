import type { ApiRecord } from '../deployments/registry';
import { parseAuthor } from './authors';
import { bibtexKey, bibtexPerson, latexOf, verbatimBibtex } from './bibtex';
import { dayOfTimestamp } from './dates';
import { generatedNote, noGeneratedIds, type GeneratedIds } from './generated-mark';
import { firstKnown, knownValues } from './known-values';
import { bareDoi, isHttpUrl } from './text';

/**
 * Records as full BibTeX entries, beside the API's `@misc` (bibtex.ts): the entry type from
 * the product type, authors with their full given names, capitals in titles braced, and the
 * journal, number, institution, url and doi a reference manager files them under.
 *
 * Dialect: biblatex's entry types (it has `@patent`; classic BibTeX styles treat an unknown
 * type as `@misc`), with field names both biblatex and BibTeX read (`journal`, `number`,
 * `institution`, `school`, `howpublished`, `url`, `doi`).
 */

type Fields = readonly (readonly [name: string, value: string | undefined])[];

const first = (record: ApiRecord, name: string): string | undefined => firstKnown(record[name]);
/** A field's first value as LaTeX. */
const latex = (record: ApiRecord, name: string) => {
  const value = first(record, name);
  return value ? latexOf(value) : undefined;
};
/** The first organization of a field that may hold one string or several. */
const organization = (record: ApiRecord, ...names: string[]) => names.map((name) => latex(record, name)).find(Boolean);

/** How one kind of record is written: its entry type and the fields only that kind has. */
interface EntryKind {
  readonly type: string;
  fields(record: ApiRecord): Fields;
}

const article: EntryKind = {
  type: 'article',
  fields: (record) => [
    ['journal', latex(record, 'journal_name')],
    ['volume', latex(record, 'journal_volume')],
    ['number', latex(record, 'journal_issue')],
  ],
};
const report: EntryKind = {
  type: 'techreport',
  fields: (record) => [
    ['institution', organization(record, 'research_orgs', 'research_org')],
    ['number', latex(record, 'report_number') ?? latex(record, 'product_number')],
  ],
};
const patent: EntryKind = {
  type: 'patent',
  fields: (record) => [
    ['number', latex(record, 'report_number')],
    ['holder', organization(record, 'sponsor_orgs', 'sponsor_org')],
  ],
};
const conference: EntryKind = { type: 'inproceedings', fields: (record) => [['booktitle', latex(record, 'journal_name')]] };
const thesis: EntryKind = { type: 'phdthesis', fields: (record) => [['school', organization(record, 'research_orgs', 'research_org')]] };
const book: EntryKind = { type: 'book', fields: () => [] };
/** Datasets, videos and whatever else is not a publication: `@misc`, said what it is. */
const other: EntryKind = {
  type: 'misc',
  fields: (record) => [
    ['howpublished', latex(record, 'product_type')],
    ['number', latex(record, 'product_number') ?? latex(record, 'report_number')],
  ],
};

/** Product types as the deployments name them (lower case), to their kind of entry. */
const kinds: ReadonlyMap<string, EntryKind> = new Map([
  ['journal article', article],
  ['technical report', report],
  ['patent', patent],
  ['patent application', patent],
  ['conference', conference],
  ['thesis/dissertation', thesis],
  ['book', book],
]);

export function entryKindOf(record: ApiRecord): EntryKind {
  return kinds.get((first(record, 'product_type') ?? '').trim().toLowerCase()) ?? other;
}

/** The record's citation page, else where the resource itself is. */
function urlOf(record: ApiRecord): string | undefined {
  const links = Array.isArray(record.links) ? (record.links as { rel?: unknown; href?: unknown }[]) : [];
  const citation = links.find((link) => link.rel === 'citation' && typeof link.href === 'string' && isHttpUrl(link.href));
  const href = typeof citation?.href === 'string' ? citation.href : first(record, 'site_url');
  return href && isHttpUrl(href) ? verbatimBibtex(href) : undefined;
}

/** "Surname, Given Names" as the record has them, not initials. */
function fullName(raw: string): string {
  const { family, given } = parseAuthor(raw);
  return bibtexPerson(given ? `${family}, ${given}` : family);
}

export function recordToFullBibtex(record: ApiRecord, prefix: string, generated = false): string {
  const kind = entryKindOf(record);
  const day = dayOfTimestamp(typeof record.publication_date === 'string' ? record.publication_date : undefined);
  const title = first(record, 'title');
  const doi = first(record, 'doi');
  // Names left empty once affiliations and ORCIDs are stripped would read as extra authors.
  const authors = knownValues(record.authors).map(fullName).filter(Boolean);
  const fields: Fields = [
    ['title', title && latexOf(title, 'protected')],
    ['author', authors.length ? authors.join(' and ') : undefined],
    ...kind.fields(record),
    ['publisher', latex(record, 'publisher')],
    ['year', day && String(day.year)],
    ['month', day && String(day.month)],
    ['doi', doi && verbatimBibtex(bareDoi(doi))],
    ['url', urlOf(record)],
    ['language', latex(record, 'language')],
    ['note', generated ? latexOf(generatedNote) : undefined],
  ];
  const body = fields
    .filter((entry): entry is readonly [string, string] => Boolean(entry[1]))
    .map(([name, value]) => `  ${name} = {${value}}`)
    .join(',\n');
  return `@${kind.type}{${bibtexKey(prefix, record.repo_id)},\n${body}\n}\n`;
}

export function recordsToFullBibtex(records: readonly ApiRecord[], prefix: string, generated: GeneratedIds = noGeneratedIds): string {
  return records.map((record) => recordToFullBibtex(record, prefix, generated.has(record.repo_id))).join('\n');
}
