import type { FacetDef } from './facets';
import type { KeyName, ValueFolding } from './key-names';
import { compileQueryFields, type QueryField } from './query-fields';
import { searchColumns, type Deployment, type FieldDef, type FieldRole, type IntegerParam, type SearchColumn } from './schema';

/**
 * The search model of one deployment, compiled from its table: what the store indexes and
 * how, which fields order and filter results, and the defaults. Server, store and app read
 * this instead of naming fields, so making a field sortable, adding an exact-match filter
 * or a date parameter is a change to the table alone.
 */

/** bm25 weights by search column: a word in the title counts most, one in the full text least. */
export const columnWeights: Record<SearchColumn, number> = {
  title: 10,
  authors: 5,
  subjects: 4,
  description: 2,
  biblio: 2,
  sponsor: 1,
  research: 1,
  contributing: 1,
  fulltext: 1,
};

/**
 * How a field's value becomes a sort key: dates compare as their ISO text (empty dates
 * sort last in either direction); text as a folded title (formats/sort-keys.ts).
 */
export type SortKeyRule = 'iso-date' | 'folded-text';

/** A field the store keeps a column for, to order by it or bound it by date. */
export interface OrderedField {
  readonly field: string;
  /** Store column holding the sort key. */
  readonly column: string;
  readonly rule: SortKeyRule;
  /** `sort` accepts it. */
  readonly sortable: boolean;
  /** Some date parameter bounds it. */
  readonly dateFilter: boolean;
  /** The direction when the request names none. */
  readonly defaultOrder: 'asc' | 'desc';
}

export interface ExactKeyPlan {
  readonly key: KeyName;
  /** Fields whose values are stored under the key. */
  readonly fields: readonly string[];
  readonly normalize?: 'doi' | 'identifier' | ValueFolding;
}

export interface SearchModel {
  readonly deployment: Deployment;
  /** What the fields mean: the one place the result line, citations, exports and import learn it. */
  readonly roles: {
    /** The fields of each role (FieldDef `role`), in table order; a role the deployment lacks is absent. */
    readonly fields: Readonly<Partial<Record<FieldRole, readonly string[]>>>;
    readonly organisations: Readonly<Partial<Record<OrganisationRole, readonly string[]>>>;
    /** Field holding the submitting site's code, where the deployment has one (else store-only metadata). */
    readonly site?: string;
    readonly identifiers: readonly string[];
  };
  /** What a record page shows where (formats/record-layout.ts). */
  readonly recordPage: {
    /**
     * The fields after the page's lead, in table order, identifiers and codes (fields stored
     * under the `identifier` or `site` key) last. The publication date stays: the lead shows its year.
     */
    readonly details: readonly string[];
  };
  readonly index: {
    readonly columns: readonly { readonly name: SearchColumn; readonly weight: number; readonly fields: readonly string[] }[];
    readonly keys: readonly ExactKeyPlan[];
    readonly facets: readonly FacetDef[];
  };
  /** The fields of the search box's fielded syntax (`author:Smith`). */
  readonly queryFields: readonly QueryField[];
  /** Every field with a store column, sortable or date-bounded, in table order. */
  readonly ordered: readonly OrderedField[];
  readonly defaults: {
    /** The order of a search without words; relevance otherwise. */
    readonly browseSort: string;
    readonly rows: number;
    readonly page: number;
  };
}

/** The search columns that hold organisations, by what the organisation did. */
export type OrganisationRole = Extract<SearchColumn, 'research' | 'sponsor' | 'contributing'>;

const normalizations: Partial<Record<KeyName, ExactKeyPlan['normalize']>> = { doi: 'doi', identifier: 'identifier' };

const sortRules: Partial<Record<FieldDef['kind'], SortKeyRule>> = { date: 'iso-date', text: 'folded-text' };

/** The column of a field's sort key: a date keeps its name; a folded text is a separate key. */
const columnOf = (field: FieldDef, rule: SortKeyRule) => (rule === 'iso-date' ? field.name : `${field.name}_key`);

function orderedFields(deployment: Deployment): OrderedField[] {
  const dated = new Set(deployment.params.flatMap((param) => (param.kind === 'date' ? [param.field] : [])));
  const ordered: OrderedField[] = [];
  for (const field of deployment.fields) {
    const sortable = field.sortable === true;
    const dateFilter = dated.has(field.name);
    if (!sortable && !dateFilter) continue;
    const rule = sortRules[field.kind];
    const problem = dateFilter && rule !== 'iso-date' ? 'bounded by date' : !rule ? 'sorted' : undefined;
    if (problem || !rule) throw new Error(`${deployment.key}: ${field.name} (${field.kind}) cannot be ${problem}.`);
    ordered.push({
      field: field.name,
      column: columnOf(field, rule),
      rule,
      sortable,
      dateFilter,
      defaultOrder: rule === 'folded-text' ? 'asc' : 'desc',
    });
    dated.delete(field.name);
  }
  if (dated.size > 0) throw new Error(`${deployment.key}: date parameters name unknown fields: ${[...dated].join(', ')}.`);
  return ordered;
}

function keyPlans(deployment: Deployment): ExactKeyPlan[] {
  const plans = new Map<KeyName, string[]>();
  for (const field of deployment.fields) {
    for (const key of field.keys ?? []) plans.set(key, [...(plans.get(key) ?? []), field.name]);
  }
  return [...plans].map(([key, fields]) => ({ key, fields, ...(normalizations[key] ? { normalize: normalizations[key] } : {}) }));
}

/** Roles the record page shows whole before its details list (the date it shows as a year). */
const leadRoles = new Set<FieldRole>([
  'title',
  'authors',
  'journal',
  'volume',
  'issue',
  'publisher',
  'description',
  'doi',
  'links',
  'relations',
]);

function detailFields(deployment: Deployment): string[] {
  const shown = deployment.fields.filter((field) => field.kind !== 'links' && !(field.role && leadRoles.has(field.role)));
  const coded = (field: FieldDef) => field.keys?.some((key) => key === 'identifier' || key === 'site') === true;
  return [...shown.filter((field) => !coded(field)), ...shown.filter(coded)].map((field) => field.name);
}

function integerDefault(deployment: Deployment, paging: IntegerParam['paging']): number {
  const param = deployment.params.find(
    (candidate): candidate is IntegerParam => candidate.kind === 'integer' && candidate.paging === paging,
  );
  if (!param) throw new Error(`${deployment.key}: no ${paging} parameter.`);
  return param.default;
}

export function compileSearchModel(deployment: Deployment): SearchModel {
  const fieldsWith = (test: (field: FieldDef) => boolean) => deployment.fields.filter(test).map((field) => field.name);
  const roleFields: Partial<Record<FieldRole, string[]>> = {};
  for (const field of deployment.fields) if (field.role) (roleFields[field.role] ??= []).push(field.name);
  if (!roleFields.title) throw new Error(`${deployment.key}: no field has the title role.`);
  const organisations: Partial<Record<OrganisationRole, string[]>> = {};
  for (const role of ['research', 'sponsor', 'contributing'] as const) {
    const names = fieldsWith((field) => field.search === role);
    if (names.length > 0) organisations[role] = names;
  }
  const ordered = orderedFields(deployment);
  const browseSort = 'publication_date';
  if (!ordered.some((field) => field.field === browseSort && field.sortable))
    throw new Error(`${deployment.key}: ${browseSort} must be sortable.`);
  return {
    deployment,
    roles: {
      fields: roleFields,
      organisations,
      ...optional('site', fieldsWith((field) => field.keys?.includes('site') === true)[0]),
      identifiers: fieldsWith((field) => field.keys?.includes('identifier') === true),
    },
    recordPage: { details: detailFields(deployment) },
    index: {
      columns: searchColumns.map((name) => ({ name, weight: columnWeights[name], fields: fieldsWith((field) => field.search === name) })),
      keys: keyPlans(deployment),
      facets: deployment.facets,
    },
    queryFields: compileQueryFields(deployment),
    ordered,
    defaults: { browseSort, rows: integerDefault(deployment, 'rows'), page: integerDefault(deployment, 'page') },
  };
}

const optional = <K extends string>(key: K, value: string | undefined) =>
  value === undefined ? {} : ({ [key]: value } as Record<K, string>);

const models = new WeakMap<Deployment, SearchModel>();

/** The compiled model of a deployment, built once per table object. */
export function searchModel(deployment: Deployment): SearchModel {
  let model = models.get(deployment);
  if (!model) {
    model = compileSearchModel(deployment);
    models.set(deployment, model);
  }
  return model;
}

/** The facet of that name (what `facet.NAME`, `exclude.NAME` and `facet=NAME` name). */
export function facetByName(deployment: Deployment, name: string): FacetDef | undefined {
  return searchModel(deployment).index.facets.find((facet) => facet.name === name);
}

/** The field `sort` names (relevance aside), or undefined when it is not sortable. */
export function sortableField(deployment: Deployment, name: string): OrderedField | undefined {
  return searchModel(deployment).ordered.find((field) => field.sortable && field.field === name);
}

export function orderedField(deployment: Deployment, name: string): OrderedField | undefined {
  return searchModel(deployment).ordered.find((field) => field.field === name);
}

/** The store column of a sortable or date-bounded field; the server's validation lets no other through. */
export function storeColumn(deployment: Deployment, name: string): string {
  const ordered = orderedField(deployment, name);
  if (!ordered) throw new Error(`${deployment.key} has no sort or date column for ${name}.`);
  return ordered.column;
}

/**
 * What a store built from this model depends on, part by part, each named for what a
 * store keeps of it: a store written under other parts lacks columns, keys, weighted
 * postings or facet values this table needs and must be rebuilt, not read as if empty.
 */
/**
 * The columns a parameter of one of `tables` searches alone (title=, author=, fulltext=...):
 * the columns a token keeps a list of its own in, beside its whole-record list. The others
 * (description, biblio) are only searched with others, by q= and biblio=, which read
 * whole-record lists (and biblio= less the full text's).
 */
export function soleSearchColumns(tables: readonly Deployment[]): SearchColumn[] {
  const sole = new Set(
    tables.flatMap((deployment) =>
      deployment.params.flatMap((param) => (param.kind === 'text' && param.columns.length === 1 ? param.columns : [])),
    ),
  );
  return searchColumns.filter((column) => sole.has(column));
}

/** What a store of `model`'s deployment keeps; `tokenLists`: the columns tokens keep lists in (the store's, for every deployment). */
export function storeFingerprint(
  model: SearchModel,
  tokenLists: readonly SearchColumn[] = soleSearchColumns([model.deployment]),
): Readonly<Record<StorePart, string>> {
  const { ordered, index } = model;
  return {
    'sort and date columns': ordered.map(({ column, rule }) => `${column}:${rule}`).join(' '),
    'exact-match keys': index.keys
      .map(({ key, fields, normalize }) => `${key}=${fields.join('+')}${normalize ? `/${normalize}` : ''}`)
      .join(' '),
    'search columns': index.columns.map(({ name, fields }) => `${name}=${fields.join('+')}`).join(' '),
    // The postings hold each word's counts weighted by column.
    'column weights': index.columns.map(({ name, weight }) => `${name}=${weight}`).join(' '),
    // Facet values are stored with each record: a new facet needs them written.
    facets: index.facets
      .map(({ name, field, key, reading, fold, criterion }) =>
        [name, criterion.kind, field ?? '', key ?? '', reading ?? '', fold ?? ''].join(':'),
      )
      .join(' '),
    // A token's lists by column are written only where a parameter searches alone.
    'token lists': tokenLists.join(' '),
  };
}

export const storeParts = [
  'sort and date columns',
  'exact-match keys',
  'search columns',
  'column weights',
  'facets',
  'token lists',
] as const;
export type StorePart = (typeof storeParts)[number];
