import type { KeyName, ValueFolding } from './key-names';
import { z } from 'zod';
import type { FacetDef } from './facets';

/**
 * The shape of the deployment table. Everything deployment-specific — record fields,
 * query parameters, link rels, naming quirks — is data of this shape, so the server's
 * validation, the store's columns, the codecs and the app's forms all read one source.
 */

export const deploymentKeys = ['LIT', 'DC1', 'DC0', 'MM', 'PAT', 'ENR'] as const;
export type DeploymentKey = (typeof deploymentKeys)[number];

export type DateFormat = 'MM/DD/YYYY' | 'MM-DD-YYYY';

/** Columns of the full-text index; each text field feeds one of them. */
export const searchColumns = [
  'title',
  'authors',
  'subjects',
  'description',
  'biblio',
  'sponsor',
  'research',
  'contributing',
  'fulltext',
] as const;
export type SearchColumn = (typeof searchColumns)[number];

export type FieldKind = 'text' | 'list' | 'date' | 'number' | 'url' | 'links';

/**
 * What a field means to the features that show, cite and export a record, whatever the
 * deployment calls it: the result line's title and venue, BibTeX's journal and number,
 * CSL's issued date. The search model maps each role to its fields (search-model.ts).
 */
export const fieldRoles = [
  'title',
  'authors',
  'subjects',
  'description',
  'published',
  'publisher',
  'doi',
  'language',
  'productType',
  'journal',
  'volume',
  'issue',
  'reportNumber',
  'productNumber',
  'mediaType',
  'url',
  'links',
  /** Related works (DataCite relations), a section of the record page of their own. */
  'relations',
] as const;
export type FieldRole = (typeof fieldRoles)[number];

export interface FieldDef {
  /** Name in JSON (and in XML unless `xml` says otherwise). */
  readonly name: string;
  readonly label: string;
  readonly kind: FieldKind;
  readonly schema: z.ZodType;
  /** XML element name where it differs from the JSON name (DC1 contributor_org). */
  readonly xml?: string;
  /** XML child element name of a list field (authors/author). */
  readonly item?: string;
  /** Full-text index column this field's text feeds. */
  readonly search?: SearchColumn;
  /** What the field means to the result line, citations and exports. */
  readonly role?: FieldRole;
  /** Exact-match keys this field's values are stored under. */
  readonly keys?: readonly KeyName[];
  /** Whether `sort` accepts this field. */
  readonly sortable?: boolean;
  /** Names the upstream API gives this field where the spec renamed it (`osti_id`). */
  readonly upstream?: readonly string[];
  /** More names of this field's date range in the search box's fielded syntax (`year:2010-2015`). */
  readonly queryAliases?: readonly string[];
  /** A number field where the upstream writes 0 when it does not know (DC1 `dataset_size`). */
  readonly zeroUnknown?: boolean;
}

interface ParamBase {
  readonly name: string;
  readonly label: string;
  readonly help: string;
  /** Shown in the advanced panel; false for the main box and paging controls. */
  readonly advanced: boolean;
  /** Names the upstream API accepts for this parameter where the spec renamed it. */
  readonly upstream?: readonly string[];
  /** More names of this parameter in the search box's fielded syntax (`authors:`), beside its name and label. */
  readonly queryAliases?: readonly string[];
  /**
   * Fields of other deployments this parameter answers in a deployment that lacks them: the
   * box reads `doi:` as `identifier` where there is no DOI parameter, since identifier finds DOIs.
   */
  readonly standsFor?: readonly string[];
}

/** Free text in the query language, matched against some index columns. */
export interface TextParam extends ParamBase {
  readonly kind: 'text';
  readonly columns: readonly SearchColumn[];
  /** A value written as a name (`Surname, E D`) finds the person by surname and initials (formats/authors.ts). */
  readonly personNames?: boolean;
  /** A year word (`2016`, `2010-2015`) also finds records published then: the main search reads the full record so. */
  readonly years?: boolean;
}
/** A case-insensitive exact match against a named key. */
export interface ExactParam extends ParamBase {
  readonly kind: 'exact';
  readonly key: KeyName;
  /** How a value is normalised before comparison; keys are stored the same way. */
  readonly normalize?: 'doi' | 'identifier' | ValueFolding;
}
export interface RepoIdParam extends ParamBase {
  readonly kind: 'repo_id';
}
export interface DateParam extends ParamBase {
  readonly kind: 'date';
  /** A date field of the deployment; the search model gives it a store column. */
  readonly field: string;
  readonly bound: 'start' | 'end';
  /** What a chip of the range opens with: `Published` (`Published: 2010–2019`). */
  readonly what: string;
}
export interface BooleanParam extends ParamBase {
  readonly kind: 'boolean';
  readonly key: KeyName;
}
export interface SortParam extends ParamBase {
  readonly kind: 'sort';
}
export interface OrderParam extends ParamBase {
  readonly kind: 'order';
}
export interface IntegerParam extends ParamBase {
  readonly kind: 'integer';
  /** What the number sets: the page size or the page number (the upstream reads page=0 as 1). */
  readonly paging: 'rows' | 'page';
  readonly default: number;
  readonly max: number;
}

/** What `group` gathers: the versions of one work (formats/work-key.ts). */
export type GroupBy = 'work';
/**
 * How a list's records are presented, not which match: `group=work` lists each work once
 * with its versions (an extension of the local server, on `{base}/records` only).
 */
export interface GroupParam extends ParamBase {
  readonly kind: 'group';
  readonly values: readonly GroupBy[];
}

export type ParamDef = TextParam | ExactParam | RepoIdParam | DateParam | BooleanParam | SortParam | OrderParam | IntegerParam | GroupParam;

export type ParamKind = ParamDef['kind'];

export type LinkRel = 'citation' | 'fulltext' | 'media';

export interface Deployment {
  readonly key: DeploymentKey;
  /** URL segment of the app's routes and of the local base path. */
  readonly slug: string;
  readonly name: string;
  readonly version: string;
  /** Local base path; the version is its last segment, as the spec requires. */
  readonly basePath: string;
  readonly dateFormat: DateFormat;
  readonly deprecated?: string;
  /** Record fields in display and serialisation order. */
  readonly fields: readonly FieldDef[];
  readonly params: readonly ParamDef[];
  /**
   * Parameters the local server accepts on `{base}/records` beyond the spec's
   * (docs/extensions.md). The search form and the other endpoints do not read them.
   */
  readonly extensions: readonly ParamDef[];
  readonly linkRels: readonly LinkRel[];
  /** Generator hints: product types that occur. */
  readonly productTypes: readonly string[];
  /** What a record that names no product type is (a dataset catalogue's are datasets); none: unknown. */
  readonly impliedProductType?: string;
  /** What the local server's `/facets` counts and the app offers as filters (src/deployments/facets.ts). */
  readonly facets: readonly FacetDef[];
}
