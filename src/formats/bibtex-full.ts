import type { ApiRecord } from '../deployments/registry';
import type { Deployment, FieldRole } from '../deployments/schema';
import { searchModel, type OrganisationRole } from '../deployments/search-model';
import { isEtAl, parseAuthor } from './authors';
import { bibtexKey, bibtexPerson, latexOf, verbatimBibtex, type LatexForm } from './bibtex';
import { dayOfTimestamp } from './dates';
import { generatedNote, noGeneratedIds, type GeneratedIds } from './generated-mark';
import { firstKnown, knownValues } from './known-values';
import { roleValue } from './record-roles';
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

/** Full entries are for LaTeX documents: pdfLaTeX cannot typeset Unicode sub- and superscripts. */
const fullLatex: LatexForm = { scripts: 'commands' };

type Fields = readonly (readonly [name: string, value: string | undefined])[];

/** A record's fields by what they mean (record-roles.ts), as text and as LaTeX. */
interface RecordReader {
  readonly record: ApiRecord;
  first(role: FieldRole): string | undefined;
  latex(role: FieldRole): string | undefined;
  /** The first organization of that role (its fields may hold one string or several). */
  organization(role: OrganisationRole): string | undefined;
}

function readerOf(deployment: Deployment, record: ApiRecord): RecordReader {
  const first = (role: FieldRole) => firstKnown(roleValue(deployment, record, role));
  const asLatex = (value: string | undefined) => (value ? latexOf(value, fullLatex) : undefined);
  return {
    record,
    first,
    latex: (role) => asLatex(first(role)),
    organization: (role) =>
      (searchModel(deployment).roles.organisations[role] ?? []).map((name) => asLatex(firstKnown(record[name]))).find(Boolean),
  };
}

/** How one kind of record is written: its entry type and the fields only that kind has. */
interface EntryKind {
  readonly type: string;
  fields(read: RecordReader): Fields;
}

const article: EntryKind = {
  type: 'article',
  fields: (read) => [
    ['journal', read.latex('journal')],
    ['volume', read.latex('volume')],
    ['number', read.latex('issue')],
  ],
};
const report: EntryKind = {
  type: 'techreport',
  fields: (read) => [
    ['institution', read.organization('research')],
    ['number', read.latex('reportNumber') ?? read.latex('productNumber')],
  ],
};
const patent: EntryKind = {
  type: 'patent',
  fields: (read) => [
    ['number', read.latex('reportNumber')],
    ['holder', read.organization('sponsor')],
  ],
};
const conference: EntryKind = { type: 'inproceedings', fields: (read) => [['booktitle', read.latex('journal')]] };
const thesis: EntryKind = { type: 'phdthesis', fields: (read) => [['school', read.organization('research')]] };
const book: EntryKind = { type: 'book', fields: () => [] };
/** Datasets, videos and whatever else is not a publication: `@misc`, said what it is. */
const other: EntryKind = {
  type: 'misc',
  fields: (read) => [
    ['howpublished', read.latex('productType')],
    ['number', read.latex('productNumber') ?? read.latex('reportNumber')],
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

function kindOf(read: RecordReader): EntryKind {
  return kinds.get((read.first('productType') ?? '').trim().toLowerCase()) ?? other;
}

export const entryKindOf = (deployment: Deployment, record: ApiRecord): EntryKind => kindOf(readerOf(deployment, record));

/** The record's citation page, else where the resource itself is. */
function urlOf(deployment: Deployment, read: RecordReader): string | undefined {
  const stored = roleValue(deployment, read.record, 'links');
  const links = Array.isArray(stored) ? (stored as { rel?: unknown; href?: unknown }[]) : [];
  const citation = links.find((link) => link.rel === 'citation' && typeof link.href === 'string' && isHttpUrl(link.href));
  const href = typeof citation?.href === 'string' ? citation.href : read.first('url');
  return href && isHttpUrl(href) ? verbatimBibtex(href) : undefined;
}

/** "Surname, Given Names" as the record has them, not initials; BibTeX's "others" ends a list known to be cut short. */
function fullName(raw: string): string {
  if (isEtAl(raw)) return 'others';
  const { family, given } = parseAuthor(raw);
  return bibtexPerson(given ? `${family}, ${given}` : family);
}

export function recordToFullBibtex(deployment: Deployment, record: ApiRecord, prefix: string, generated = false): string {
  const read = readerOf(deployment, record);
  const kind = kindOf(read);
  const published = roleValue(deployment, record, 'published');
  const day = dayOfTimestamp(typeof published === 'string' ? published : undefined);
  const title = read.first('title');
  const doi = read.first('doi');
  // Names left empty once affiliations and ORCIDs are stripped would read as extra authors.
  const authors = knownValues(roleValue(deployment, record, 'authors'))
    .map(fullName)
    .filter(Boolean);
  const fields: Fields = [
    ['title', title && latexOf(title, { ...fullLatex, capitals: 'protected' })],
    ['author', authors.length ? authors.join(' and ') : undefined],
    ...kind.fields(read),
    ['publisher', read.latex('publisher')],
    ['year', day && String(day.year)],
    ['month', day && String(day.month)],
    ['doi', doi && verbatimBibtex(bareDoi(doi))],
    ['url', urlOf(deployment, read)],
    ['language', read.latex('language')],
    ['note', generated ? latexOf(generatedNote) : undefined],
  ];
  const body = fields
    .filter((entry): entry is readonly [string, string] => Boolean(entry[1]))
    .map(([name, value]) => `  ${name} = {${value}}`)
    .join(',\n');
  return `@${kind.type}{${bibtexKey(prefix, record.repo_id)},\n${body}\n}\n`;
}

export function recordsToFullBibtex(
  deployment: Deployment,
  records: readonly ApiRecord[],
  prefix: string,
  generated: GeneratedIds = noGeneratedIds,
): string {
  return records.map((record) => recordToFullBibtex(deployment, record, prefix, generated.has(record.repo_id))).join('\n');
}
