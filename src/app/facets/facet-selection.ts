import type { FacetDef } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import { facetValueParams } from '../../formats/facet-params';
import { asRecordText, type RecordText } from '../../formats/record-text';
import { withValues, type Entries } from '../navigation/query-params';

/**
 * Facet values as search criteria: a value is ticked when the search holds every parameter
 * that selects it, and ticking or unticking one is a new search from its first page.
 */

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function isSelected(entries: Entries, params: Readonly<Record<string, string>>): boolean {
  return Object.entries(params).every(([name, value]) =>
    entries.some(([entryName, entryValue]) => entryName === name && same(entryValue, value)),
  );
}

/** The search with a value ticked (its parameters set) or unticked (its parameters removed), back on page 1. */
export function toggledEntries(entries: Entries, params: Readonly<Record<string, string>>, tick: boolean): [string, string][] {
  const replacements: Record<string, string | undefined> = { page: undefined };
  for (const [name, value] of Object.entries(params)) replacements[name] = tick ? value : undefined;
  return withValues(entries, replacements);
}

/**
 * The facets to offer: all of them from a server with `/facets`; otherwise only those whose
 * values are known without asking (and never one that needs an extension parameter).
 */
export function offeredFacets(deployment: Deployment, serverFacets: boolean): readonly FacetDef[] {
  if (serverFacets) return deployment.facets;
  return deployment.facets.filter((facet) => facet.values && facet.criterion.kind !== 'extension');
}

/** How a value reads in the list: as the table names it (Yes for `true`), else as the records write it, for the text model to show. */
export const valueLabel = (facet: FacetDef, value: string): RecordText | string => facet.valueLabels?.[value] ?? asRecordText(value);

/** The search parameters a facet's values are selected by. */
export function facetParamNames(facet: FacetDef): string[] {
  const { criterion } = facet;
  return criterion.kind === 'date-range' ? [`${criterion.field}_start`, `${criterion.field}_end`] : [criterion.param];
}

/**
 * The values of a facet the search is filtered by, so they stay listed (and ticked) even
 * when they are not among the values counted.
 */
export function selectedValues(deployment: Deployment, facet: FacetDef, entries: Entries): string[] {
  const [first] = facetParamNames(facet);
  const candidates = entries
    .filter(([name]) => name === first)
    .map(([, value]) => {
      if (facet.criterion.kind !== 'date-range') return value.trim();
      const year = /(\d{4})/.exec(value)?.[1] ?? '';
      return facet.criterion.unit === 'year' ? year : `${year.slice(0, 3)}0s`;
    });
  return candidates.filter((value) => {
    const params = facetValueParams(deployment, facet, value);
    return params !== undefined && isSelected(entries, params);
  });
}
