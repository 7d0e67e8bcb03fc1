import { facetFilterParam, type FacetFilterMode } from '../../formats/facet-filters';
import type { Entries } from '../navigation/query-params';

/**
 * Facets that combine, as the search URL holds them: each ticked value is a `facet.NAME`
 * entry and each excluded one an `exclude.NAME` entry, so a link restores the selection
 * and back/forward step through it. Any change is a new search from its first page.
 */

/** A value is selected, excluded, or neither. */
export type ValueState = FacetFilterMode | 'none';

export interface FacetFilters {
  readonly selected: readonly string[];
  readonly excluded: readonly string[];
}

const valuesOf = (entries: Entries, name: string) => entries.filter(([entry]) => entry === name).map(([, value]) => value);

export function facetFilters(entries: Entries, facet: string): FacetFilters {
  return {
    selected: valuesOf(entries, facetFilterParam('select', facet)),
    excluded: valuesOf(entries, facetFilterParam('exclude', facet)),
  };
}

export function valueState(filters: FacetFilters, value: string): ValueState {
  if (filters.selected.includes(value)) return 'select';
  return filters.excluded.includes(value) ? 'exclude' : 'none';
}

/**
 * The search with one value of a facet selected, excluded or neither (a value is never both),
 * the other entries kept in order, the new one last, back on page 1.
 */
export function withValueState(entries: Entries, facet: string, value: string, state: ValueState): [string, string][] {
  const names = new Set([facetFilterParam('select', facet), facetFilterParam('exclude', facet)]);
  const kept = entries
    .filter(([name, entry]) => name !== 'page' && !(names.has(name) && entry === value))
    .map(([name, entry]): [string, string] => [name, entry]);
  return state === 'none' ? kept : [...kept, [facetFilterParam(state, facet), value]];
}

/**
 * A row that stands for several spellings (a server's `variants`: `Fredrickson, E. D.` and
 * `Fredrickson, E.D.`) is chosen when any of them is, as a link or an older search may hold
 * any one: the first spelling the URL holds decides, and undefined says none is held.
 */
export function rowState(filters: FacetFilters, spellings: readonly string[]): ValueState {
  for (const spelling of spellings) {
    const state = valueState(filters, spelling);
    if (state !== 'none') return state;
  }
  return 'none';
}

/**
 * The search with a row of several spellings selected, excluded or neither: every spelling
 * the URL holds is taken out and the row's own value (which the server folds to all of them)
 * put in, so no spelling stays selected behind a row the researcher unticked.
 */
export function withRowState(
  entries: Entries,
  facet: string,
  value: string,
  spellings: readonly string[],
  state: ValueState,
): [string, string][] {
  const cleared = spellings
    .filter((spelling) => spelling !== value)
    .reduce((kept, spelling) => withValueState(kept, facet, spelling, 'none'), [...entries] as [string, string][]);
  return withValueState(cleared, facet, value, state);
}
