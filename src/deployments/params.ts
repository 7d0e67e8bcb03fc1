import { searchColumns, type DateParam, type GroupParam, type ParamDef, type SearchColumn, type TextParam } from './schema';

/** Query parameters shared by the deployments, and builders for the specific ones. */

const queryHelp = 'Words must all match; use "quotes" for a phrase, OR, NOT or -word, ( ) and word* for a prefix.';

const textParam = (name: string, label: string, columns: readonly SearchColumn[], help: string): TextParam => ({
  name,
  label,
  kind: 'text',
  columns,
  help: `${help} ${queryHelp}`,
  advanced: true,
});

/** A bound on a date field: `what` starts the label ("Published on or after"), `noun` names the date in the help. */
export const dateParam = (field: string, bound: DateParam['bound'], what: string, noun: string): DateParam => ({
  name: `${field}_${bound}`,
  label: bound === 'start' ? `${what} on or after` : `${what} on or before`,
  help: `Inclusive ${bound === 'start' ? 'lower' : 'upper'} bound on the ${noun} date.`,
  kind: 'date',
  field,
  bound,
  what,
  advanced: true,
});

const biblioColumns = searchColumns.filter((column) => column !== 'fulltext');

export const q: TextParam = {
  ...textParam(
    'q',
    'Search',
    searchColumns,
    'Searches every field of the record and its full text; a year (2016) or range of years (2010-2015) also finds the records published then.',
  ),
  advanced: false,
  years: true,
};
export const repoId: ParamDef = {
  name: 'repo_id',
  label: 'Record ID',
  help: 'The exact identifier of one record.',
  kind: 'repo_id',
  advanced: true,
  upstream: ['osti_id'],
  queryAliases: ['id'],
};
export const biblio = textParam(
  'biblio',
  'Bibliographic data',
  biblioColumns,
  'Searches titles, authors, subjects, descriptions, journals, identifiers and organisations.',
);
export const author: TextParam = {
  ...textParam(
    'author',
    'Author',
    ['authors'],
    'Searches author names and affiliations; Surname, Initials finds every spelling with those initials.',
  ),
  queryAliases: ['authors'],
  personNames: true,
};
export const title = textParam('title', 'Title', ['title'], 'Searches titles.');
export const identifier: ParamDef = {
  name: 'identifier',
  label: 'Identifier',
  help: 'Finds records by report, product or contract number, DOI or record ID (case and spacing ignored).',
  kind: 'exact',
  key: 'identifier',
  normalize: 'identifier',
  advanced: true,
  standsFor: ['doi'],
};
/**
 * An organisation parameter is named in the singular by most deployments and in the plural
 * by MM; the box reads both names everywhere, so one fielded search runs in every catalog.
 */
const organisationParam = (name: string, label: string, search: SearchColumn, help: string, singular: string): TextParam => ({
  ...textParam(name, label, [search], help),
  queryAliases: [singular, `${singular}s`],
});
export const sponsorOrg = (name = 'sponsor_org') =>
  organisationParam(
    name,
    'Sponsoring organisation',
    'sponsor',
    'Searches the organisations that sponsored or funded the work.',
    'sponsor_org',
  );
export const researchOrg = (name = 'research_org') =>
  organisationParam(name, 'Research organisation', 'research', 'Searches the organisations that conducted the research.', 'research_org');
export const contributingOrg = (name = 'contributing_org') =>
  organisationParam(name, 'Contributing organisation', 'contributing', 'Searches other contributing organisations.', 'contributing_org');
export const sourceId: ParamDef = {
  name: 'source_id',
  label: 'Source code',
  help: 'Code of the organisation that submitted the record, for example OSTI or PPPL (exact, any case).',
  kind: 'exact',
  key: 'site',
  advanced: true,
};
export const language: ParamDef = {
  name: 'language',
  label: 'Language',
  help: 'Primary language of the resource, for example English (exact, any case).',
  kind: 'exact',
  key: 'language',
  advanced: true,
};
export const country: ParamDef = {
  name: 'country',
  label: 'Country of publication',
  help: 'Country in which the record was published, for example United States (exact, any case).',
  kind: 'exact',
  key: 'country',
  advanced: true,
};
export const sort: ParamDef = {
  name: 'sort',
  label: 'Sort by',
  help: 'Relevance when searching for words, otherwise newest publication first.',
  kind: 'sort',
  advanced: true,
};
export const order: ParamDef = {
  name: 'order',
  label: 'Order',
  help: 'Descending by default; ascending by default for title.',
  kind: 'order',
  advanced: true,
};
export const rows: ParamDef = {
  name: 'rows',
  label: 'Results per page',
  help: 'From 1 to 1000; 20 by default.',
  kind: 'integer',
  paging: 'rows',
  default: 20,
  max: 1000,
  advanced: true,
};
export const page: ParamDef = {
  name: 'page',
  label: 'Page',
  help: 'Page number, from 1.',
  kind: 'integer',
  paging: 'page',
  default: 1,
  max: 10_000_000,
  advanced: false,
};

export const fulltext = textParam('fulltext', 'Full text', ['fulltext'], 'Searches the full text, where the record has one.');
export const siteOwnershipCode: ParamDef = {
  name: 'site_ownership_code',
  label: 'Site code',
  help: 'ID code of the submitting organisation (exact, any case).',
  kind: 'exact',
  key: 'site',
  advanced: true,
};
export const doi: ParamDef = {
  name: 'doi',
  label: 'DOI',
  help: 'A DOI, bare (10.1234/abc) or as a resolver URL.',
  kind: 'exact',
  key: 'doi',
  normalize: 'doi',
  advanced: true,
};
export const subject: TextParam = {
  ...textParam('subject', 'Subject', ['subjects'], 'Searches subject categories and keywords (optional metadata, so coverage is partial).'),
  queryAliases: ['subjects', 'keyword', 'keywords'],
  // Where a deployment has no subject parameter, its subject facet is searched as `subject_term:`.
  standsFor: ['subject_term'],
};
export const hasFulltext: ParamDef = {
  name: 'has_fulltext',
  label: 'Full text available',
  help: 'Yes: records with full text; No: citation-only records.',
  kind: 'boolean',
  key: 'has_fulltext',
  advanced: true,
};
export const datasetContentType: ParamDef = {
  name: 'dataset_content_type',
  label: 'Content type',
  help: 'Category of the dataset or collection, for example Simulation or Numeric (exact, any case).',
  kind: 'exact',
  key: 'dataset_content_type',
  advanced: true,
};
export const mimeType: ParamDef = {
  name: 'mime_type',
  label: 'Media type',
  help: 'Multimedia format, for example mp4, html or x-ms-wma (exact, any case).',
  kind: 'exact',
  key: 'mime_type',
  advanced: true,
};

const dates = [
  dateParam('publication_date', 'start', 'Published', 'publication'),
  dateParam('publication_date', 'end', 'Published', 'publication'),
  dateParam('entry_date', 'start', 'Entered', 'entry'),
  dateParam('entry_date', 'end', 'Entered', 'entry'),
] as const;

/**
 * The common parameters in the spec's order. `orgs` carries the deployment's organisation
 * parameters (MM renames them), `specific` its own parameters, placed before the paging ones.
 */
export function withCommonParams(orgs: readonly ParamDef[], specific: readonly ParamDef[]): ParamDef[] {
  return [
    q,
    repoId,
    biblio,
    author,
    title,
    identifier,
    ...orgs,
    sourceId,
    ...dates,
    language,
    country,
    ...specific,
    sort,
    order,
    rows,
    page,
  ];
}

export const standardOrgParams = [sponsorOrg(), researchOrg(), contributingOrg()] as const;

/** `group=work`: each work once, its versions with it (an extension; docs/extensions.md). */
export const group: GroupParam = {
  name: 'group',
  label: 'Group',
  help: 'work: each work once, its other versions with it.',
  kind: 'group',
  values: ['work'],
  advanced: true,
};

/** The local server's own parameters of `{base}/records`, the same in every deployment. */
export const listExtensions: readonly ParamDef[] = [group];
