import type { FacetCriterion, FacetDef } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';

/** A search's query parameters, in order, as the URL holds them. */
export type Entries = readonly (readonly [string, string])[];

/**
 * Where a kind's counts come from in the store: the values stored for each record (under
 * the facet's key or its own rows), or the record's date column, its years grouped into the
 * kind's values (a year, a decade). The store reads each source in one way
 * (server/store/facets/facet-index.ts), so a kind of an existing source needs nothing there.
 */
export type CountSource =
  { readonly from: 'values' } | { readonly from: 'dates'; readonly field: string; readonly group: (year: string) => string };

/**
 * A way a facet value selects records (the criterion kinds of src/deployments/facets.ts),
 * as behaviour: the app, the HTTP server and the store call it and never ask which kind a
 * facet is. One object per kind, in a file of its own beside this one; ./registry.ts names
 * them (docs/architecture.md, "Add a facet kind").
 */
export interface FacetKind<C extends FacetCriterion = FacetCriterion> {
  /**
   * The search parameters that select one value, undefined for a value the kind cannot
   * express: what the app sets when the value is ticked, what a `/facets` count was
   * counted by, and what the server parses into the value's selection.
   */
  params(deployment: Deployment, criterion: C, value: string): Record<string, string> | undefined;
  /** The names of the parameters `params` sets, the one that names a value first. */
  paramNames(criterion: C): string[];
  /**
   * The values a search's parameters name (read back from the URL), before they are checked
   * to select as `params` would (formats/facet-selection.ts keeps those whose parameters the
   * search holds all of).
   */
  valuesIn(deployment: Deployment, criterion: C, entries: Entries): string[];
  /** Where the store reads the records of each value. */
  counts(criterion: C): CountSource;
  /** Stored values compare as their exact-match parameter does, in any case ("English" = "english"). */
  readonly caseless: boolean;
  /** The spec's exact-match parameter whose form field can suggest the counted values, if any. */
  suggests(criterion: C): string | undefined;
  /** The words a value of the facet reads as in a chip, a search history line and a feed's title. */
  chipWords(facet: FacetDef, value: string): string;
}

/** A value as the table names it (Yes for `true`), else as written. */
export const asStored = (facet: FacetDef, value: string) => facet.valueLabels?.[value] ?? value.trim();

/** A parameter's values in a search, trimmed, for a kind selected by one parameter. */
export const valuesOf = (entries: Entries, name: string) => entries.filter(([entry]) => entry === name).map(([, value]) => value.trim());
