import type { KeyName, ValueFolding } from './key-names';

/**
 * Facets: the fields the local server counts by value (`GET {base}/facets`, an extension)
 * and the app offers as filters. Each facet says how one of its values becomes a criterion
 * of the ordinary search, so a count always equals the `X-Total-Count` of that search.
 */
export type FacetCriterion =
  /** An exact-match or boolean parameter of the spec: `language=English`. */
  | { readonly kind: 'exact'; readonly param: string }
  /** The publication-date range of one year (`2015`) or decade (`2010s`), in the deployment's date format. */
  | { readonly kind: 'date-range'; readonly field: 'publication_date'; readonly unit: 'year' | 'decade' }
  /**
   * A parameter no spec deployment has: the local server accepts it on `/records` and
   * `/facets` and advertises it with `/facets`; the app sends it only to such a server.
   */
  | { readonly kind: 'extension'; readonly param: string };

export interface FacetDef {
  readonly name: string;
  readonly label: string;
  readonly criterion: FacetCriterion;
  /** Record field whose values are counted (each list item once per record); absent where the store keeps them. */
  readonly field?: string;
  /** Exact-match key the store keeps these values under, where there is one. */
  readonly key?: KeyName;
  /**
   * Values known without asking a server (the deployment's product types, yes/no), so a
   * server without `/facets` can still offer them, counted lazily.
   */
  readonly values?: readonly string[];
  /** How values read where they are codes (`true` → Yes). */
  readonly valueLabels?: Readonly<Record<string, string>>;
  /** More names of an extension facet's parameter in the search box's fielded syntax (`type:`). */
  readonly queryAliases?: readonly string[];
  /** How a stored field value becomes a facet value: as written, or (`person-name`) the person's name alone, without affiliation or ORCID. */
  readonly reading?: 'person-name';
  /**
   * How spellings count as one value (formats/value-folding.ts): one row per folded value,
   * shown in its commonest spelling, its other spellings listed; its parameter folds alike.
   */
  readonly fold?: ValueFolding;
  /**
   * The facet's values are offered as a person types (the `/complete` extension): in the
   * search box, and in the form fields of these parameters (those the deployment has).
   */
  readonly typeAhead?: { readonly params: readonly string[] };
}

const productTypeFacet = (values: readonly string[]): FacetDef => ({
  name: 'product_type',
  label: 'Product type',
  criterion: { kind: 'extension', param: 'product_type' },
  field: 'product_type',
  key: 'product_type',
  values,
  queryAliases: ['type'],
});

const publicationYearFacet: FacetDef = {
  name: 'publication_year',
  label: 'Publication year',
  criterion: { kind: 'date-range', field: 'publication_date', unit: 'year' },
  field: 'publication_date',
};

const publicationDecadeFacet: FacetDef = {
  name: 'publication_decade',
  label: 'Publication decade',
  criterion: { kind: 'date-range', field: 'publication_date', unit: 'decade' },
  field: 'publication_date',
};

/** A facet selected by an exact-match parameter of the same name, counting a field's values. */
const exactFacet = (name: string, label: string, key: KeyName, field?: string): FacetDef => ({
  name,
  label,
  criterion: { kind: 'exact', param: name },
  ...(field ? { field } : {}),
  key,
});

const languageFacet = exactFacet('language', 'Language', 'language', 'language');
const countryFacet = exactFacet('country', 'Country of publication', 'country', 'country_publication');

/**
 * A facet of a field's values as records hold them, folded as people read them (`fold`):
 * each value counts the records holding it in any of its spellings, and selects exactly
 * those by an extension parameter that folds alike (formats/value-folding.ts), so a count
 * is the `X-Total-Count` of its selection and never a phrase's matches elsewhere in a record.
 */
const heldFacet = (name: string, label: string, field: string, key: KeyName, fold: ValueFolding): FacetDef => ({
  name,
  label,
  criterion: { kind: 'extension', param: key },
  field,
  key,
  fold,
});

const researchOrgFacet = (name: string, field: string): FacetDef => ({
  ...heldFacet(name, 'Research organisation', field, 'research_org_name', 'organisation'),
  typeAhead: { params: [name] },
});

const sponsorOrgFacet = (name: string, field: string): FacetDef => ({
  ...heldFacet(name, 'Sponsoring organisation', field, 'sponsor_org_name', 'organisation'),
  typeAhead: { params: [name] },
});

/** Subjects and keywords as records list them, in any case and number (`Tokamaks` = `tokamak`). */
const subjectFacet: FacetDef = {
  ...heldFacet('subject', 'Subject', 'subjects', 'subject_term', 'term'),
  queryAliases: ['subjects', 'keyword', 'keywords'],
  typeAhead: { params: ['subject'] },
};

/**
 * Authors by name (affiliations and ORCID iDs left out), one row per surname and initials
 * (`Fredrickson, E. D.` = `Fredrickson, E.D.` = `Fredrickson, Eric D.`), each counting the
 * records that carry the name in any of those spellings: selected by the `author_name`
 * extension parameter, which folds names alike. (A phrase of the `author` parameter would
 * count more than the records holding the name, and its counts cannot be ordered without a
 * search per name.)
 */
const authorFacet: FacetDef = {
  ...heldFacet('author', 'Author', 'authors', 'author_name', 'person'),
  reading: 'person-name',
  typeAhead: { params: ['author'] },
};

/** Journals by name in any case and punctuation (`Phys. Rev. Lett.` = `phys rev lett`), offered as a person types in the search box. */
export const journalFacet: FacetDef = {
  ...heldFacet('journal', 'Journal', 'journal_name', 'journal', 'organisation'),
  typeAhead: { params: [] },
};

/** The submitter's code: the deployment's site field, or the code the store keeps beside a record that has none. */
export const siteFacet = (param: string, field?: string): FacetDef => exactFacet(param, 'Site code', 'site', field);
export const mimeTypeFacet = exactFacet('mime_type', 'Media type', 'mime_type', 'mime_type');
export const datasetContentTypeFacet = exactFacet('dataset_content_type', 'Content type', 'dataset_content_type', 'dataset_content_type');
export const hasFulltextFacet: FacetDef = {
  ...exactFacet('has_fulltext', 'Full text available', 'has_fulltext'),
  values: ['true', 'false'],
  valueLabels: { true: 'Yes', false: 'No' },
};

/**
 * The parameter of the local server's own (one no spec deployment has) a facet selects by,
 * if it selects by one: the one place that reads it from the criterion, so the app asks a
 * facet rather than its kind whether a server must take an extension to select its values.
 */
export const extensionParamOf = ({ criterion }: FacetDef): string | undefined =>
  criterion.kind === 'extension' ? criterion.param : undefined;

/** The facet whose extension parameter is `name`, if any. */
export function extensionFacet(deployment: { readonly facets: readonly FacetDef[] }, name: string): FacetDef | undefined {
  return deployment.facets.find((facet) => extensionParamOf(facet) === name);
}

/** The facets whose values are offered as a person types (FacetDef `typeAhead`), in the table's order. */
export const typeAheadFacets = (deployment: { readonly facets: readonly FacetDef[] }): FacetDef[] =>
  deployment.facets.filter((facet) => facet.typeAhead);

/** The facet whose values a parameter's form field offers as a person types, if any. */
export function typeAheadFacetOf(deployment: { readonly facets: readonly FacetDef[] }, param: string): FacetDef | undefined {
  return deployment.facets.find((facet) => facet.typeAhead?.params.includes(param));
}

/** The facet counting publication years (the app's year chart draws it), if the deployment has one. */
export function yearFacet(deployment: { readonly facets: readonly FacetDef[] }): FacetDef | undefined {
  return deployment.facets.find(({ criterion }) => criterion.kind === 'date-range' && criterion.unit === 'year');
}

/** The extension parameters a deployment's facets select by. */
export function extensionParams(deployment: { readonly facets: readonly FacetDef[] }): string[] {
  return deployment.facets.flatMap((facet) => extensionParamOf(facet) ?? []);
}

/** A deployment's organisation facets (named as its organisation parameters) and the fields they count: [name, field]. */
export interface OrgFacetNames {
  readonly research: readonly [name: string, field: string];
  readonly sponsor: readonly [name: string, field: string];
}

/** The facets every deployment has, in the order the app lists them, then its own. */
export function withCommonFacets(productTypes: readonly string[], orgs: OrgFacetNames, specific: readonly FacetDef[] = []): FacetDef[] {
  return [
    productTypeFacet(productTypes),
    publicationYearFacet,
    publicationDecadeFacet,
    languageFacet,
    countryFacet,
    researchOrgFacet(...orgs.research),
    sponsorOrgFacet(...orgs.sponsor),
    subjectFacet,
    authorFacet,
    ...specific,
  ];
}
