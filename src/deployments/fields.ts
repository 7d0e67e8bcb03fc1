import { z } from 'zod';
import type { FieldDef, FieldRole, SearchColumn } from './schema';
import type { KeyName } from './key-names';

/**
 * Field definitions shared by the deployments. Schemas are lenient on purpose: the spec
 * says any field may be empty (empty string, empty array or null), and the app must
 * accept any spec-conformant server, so only the types are checked.
 */

interface FieldOptions {
  readonly search?: SearchColumn;
  readonly role?: FieldRole;
  readonly keys?: readonly KeyName[];
  readonly xml?: string;
  readonly sortable?: boolean;
  readonly upstream?: readonly string[];
  readonly queryAliases?: readonly string[];
}

const text = (name: string, label: string, options: FieldOptions = {}): FieldDef => ({
  name,
  label,
  kind: 'text',
  schema: z.string().nullish(),
  ...options,
});

const list = (name: string, label: string, item: string, options: FieldOptions = {}): FieldDef => ({
  name,
  label,
  kind: 'list',
  item,
  schema: z.array(z.string()).nullish(),
  ...options,
});

const date = (name: string, label: string, options: FieldOptions = {}): FieldDef => ({
  name,
  label,
  kind: 'date',
  schema: z.string().nullish(),
  ...options,
});

export const repoId: FieldDef = {
  name: 'repo_id',
  label: 'Record ID',
  kind: 'text',
  schema: z.union([z.string().min(1), z.number().int()]).transform(String),
  keys: ['identifier'],
  upstream: ['osti_id'],
};

export const title = text('title', 'Title', { search: 'title', role: 'title', sortable: true });
export const authors = list('authors', 'Authors', 'author', { search: 'authors', role: 'authors' });
export const subjects = list('subjects', 'Subjects', 'subject', { search: 'subjects', role: 'subjects' });
export const description = text('description', 'Description', { search: 'description', role: 'description' });
export const publisher = text('publisher', 'Publisher', { search: 'biblio', role: 'publisher' });
export const countryPublication = text('country_publication', 'Country of publication', {
  keys: ['country'],
});
export const publicationDate = date('publication_date', 'Publication date', {
  role: 'published',
  sortable: true,
  queryAliases: ['year', 'published'],
});
export const entryDate = date('entry_date', 'Entry date', { sortable: true, queryAliases: ['entered'] });
export const doi = text('doi', 'DOI', { search: 'biblio', role: 'doi', keys: ['doi', 'identifier'] });
export const language = text('language', 'Language', { role: 'language', keys: ['language'] });
export const availability = text('availability', 'Availability');
export const format = text('format', 'Format');
export const agencyContractNumber = text('agency_contract_number', 'Contract number(s)', {
  search: 'biblio',
  keys: ['identifier'],
  upstream: ['doe_contract_number'],
});

/** Fields every deployment has, in the spec's order (organisation fields come per deployment). */
export const commonFields = [
  repoId,
  title,
  authors,
  subjects,
  description,
  publisher,
  countryPublication,
  publicationDate,
  entryDate,
  doi,
  language,
  availability,
  format,
  agencyContractNumber,
] as const;

// Organisation fields: the spec's naming differs per deployment.
export const researchOrgs = list('research_orgs', 'Research organisations', 'research_org', { search: 'research' });
export const sponsorOrgs = list('sponsor_orgs', 'Sponsoring organisations', 'sponsor_org', { search: 'sponsor' });
export const contributingOrgs = list('contributing_orgs', 'Contributing organisations', 'contributing_org', {
  search: 'contributing',
});
export const contributingOrg = text('contributing_org', 'Contributing organisation', { search: 'contributing' });
/** DC1: `contributor_org` in JSON, a `contributing_org` element in XML; the upstream's JSON says both of its names. */
export const contributorOrg = text('contributor_org', 'Contributing organisation', {
  search: 'contributing',
  xml: 'contributing_org',
  upstream: ['contributing_org', 'contributing_organizations'],
});
export const researchOrg = text('research_org', 'Research organisation', { search: 'research' });
export const sponsorOrg = text('sponsor_org', 'Sponsoring organisation', { search: 'sponsor' });

export const productType = text('product_type', 'Product type', { role: 'productType', keys: ['product_type'] });
export const reportNumber = text('report_number', 'Report number(s)', { search: 'biblio', role: 'reportNumber', keys: ['identifier'] });
export const productNumber = text('product_number', 'Product number', { search: 'biblio', role: 'productNumber', keys: ['identifier'] });
export const journalName = text('journal_name', 'Journal', { search: 'biblio', role: 'journal' });
export const journalVolume = text('journal_volume', 'Volume', { role: 'volume' });
export const journalIssue = text('journal_issue', 'Issue', { role: 'issue' });
export const articleType = text('article_type', 'Article type');
export const mimeType = text('mime_type', 'Media type', { role: 'mediaType', keys: ['mime_type'] });
export const nsaNumber = text('nsa_number', 'NSA number', { search: 'biblio', keys: ['identifier'] });
export const datasetContentType = list('dataset_content_type', 'Content type', 'content_type', {
  keys: ['dataset_content_type'],
});
export const relatedResource = text('related_resource', 'Related resource');
export const relatedIdentifiers = list('related_identifiers', 'Related identifiers', 'related_identifier', { role: 'relations' });
export const datasetSize: FieldDef = {
  name: 'dataset_size',
  label: 'Size',
  kind: 'number',
  schema: z.number().nullish(),
  // Every record of the shipped DC1 files says 0; their real sizes are in `format` ("Size: 4.28 MB").
  zeroUnknown: true,
};
export const siteUrl: FieldDef = {
  name: 'site_url',
  label: 'Site',
  kind: 'url',
  role: 'url',
  schema: z.string().nullish(),
};
export const siteOwnershipCode = text('site_ownership_code', 'Site code', { keys: ['site'] });
export const announcementDate = date('announcement_date', 'Announcement date');
export const submittingSite = text('submitting_site', 'Submitting site', { keys: ['site'] });
export const otherIdentifyingNumbers = text('other_identifying_numbers', 'Other identifying numbers', {
  search: 'biblio',
  keys: ['identifier'],
});

/** Organisation fields of LIT, PAT and ENR: plural lists plus one contributing string. */
export const standardOrgFields = [researchOrgs, sponsorOrgs, contributingOrg] as const;

/** Where an article appeared: LIT, PAT and MM. */
export const journalFields = [journalName, journalVolume, journalIssue, articleType] as const;

export const linkSchema = z.object({ rel: z.string(), href: z.string() });
export type Link = z.infer<typeof linkSchema>;

export const links: FieldDef = {
  name: 'links',
  label: 'Links',
  kind: 'links',
  role: 'links',
  item: 'link',
  schema: z.array(linkSchema).nullish(),
};
