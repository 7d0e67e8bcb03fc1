import type { Deployment } from '../../deployments/schema';
import { extensionParamOf, type FacetDef } from '../../deployments/facets';
import { asRecordText, type RecordText } from '../../formats/record-text';
import { withValues, type Entries } from '../navigation/query-params';

/**
 * Facet values as search criteria: a value is ticked when the search holds every parameter
 * that selects it (formats/facet-params.ts), and ticking or unticking one is a new search
 * from its first page.
 */

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
  return deployment.facets.filter((facet) => facet.values && extensionParamOf(facet) === undefined);
}

/** How a value reads in the list: as the table names it (Yes for `true`), else as the records write it, for the text model to show. */
export const valueLabel = (facet: FacetDef, value: string): RecordText | string => facet.valueLabels?.[value] ?? asRecordText(value);
