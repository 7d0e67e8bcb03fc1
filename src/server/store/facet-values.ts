import type { FacetDef } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import { facetValueParams } from '../../formats/facet-params';
import { toPlainLine } from '../../formats/rich-text';
import { valuesOf } from '../../formats/text';
import { parseQuery } from '../query/parse';
import { normalizeKeyValue } from '../../formats/keys';
import type { Criteria, FacetRequest, FacetValueCount, StoredRecord } from './types';

/**
 * What both stores share about facets (src/deployments/facets.ts): the values a record is
 * counted under, how values group, order and page, and the criteria one value adds.
 */

/** The name facet values are stored under, beside the exact-match keys. */
export const facetKeyName = (facet: FacetDef) => `facet:${facet.name}`;

const maxValueLength = 300;

/** Where a facet's values come from in a stored record; undefined for years (the date column) and yes/no keys. */
function sourceOf(facet: FacetDef): ((stored: StoredRecord) => string[]) | undefined {
  if (facet.criterion.kind === 'date-range') return undefined;
  if (facet.field) return (stored) => valuesOf(stored.record[facet.field!]);
  if (facet.key === 'site') return (stored) => (stored.site ? [stored.site] : []);
  return undefined;
}

/** Whether a facet's values are stored under `facetKeyName` (else under its exact-match key). */
export const hasFacetRows = (facet: FacetDef) => sourceOf(facet) !== undefined;

/**
 * A record's facet values as a reader sees them (markup and entities resolved, spaces
 * collapsed), each value's group once (groupOf), as first seen.
 */
export function facetRowsOf(deployment: Deployment, stored: StoredRecord): [string, string][] {
  const rows: [string, string][] = [];
  const groups = new Set<string>();
  for (const facet of deployment.facets) {
    const source = sourceOf(facet);
    if (!source) continue;
    const group = groupOf(facet);
    for (const raw of source(stored)) {
      const value = toPlainLine(raw).replace(/\s+/g, ' ').trim().slice(0, maxValueLength);
      const seen = `${facet.name}\u0000${group(value)}`;
      if (!value || groups.has(seen)) continue;
      groups.add(seen);
      rows.push([facetKeyName(facet), value]);
    }
  }
  return rows;
}

/**
 * The group a stored value counts in: exact-match values compare as their parameter does
 * (any case), so "English" and "english" are one value, shown as first seen.
 */
export function groupOf(facet: FacetDef): (value: string) => string {
  return isCaseless(facet) ? (value) => normalizeKeyValue(value) : (value) => value;
}

/** Whether a facet's values compare as their exact-match parameter does, in any case. */
export const isCaseless = (facet: FacetDef) => facet.criterion.kind === 'exact' || facet.criterion.kind === 'extension';

/** Decades from years: `1994` counts in `1990s`. */
export const decadeOf = (year: string) => `${year.slice(0, 3)}0s`;

/** One page of values, by count (then A–Z) or A–Z, and how many distinct values there are. */
export function pageOfValues(counts: readonly FacetValueCount[], request: FacetRequest): { distinct: number; values: FacetValueCount[] } {
  const nonEmpty = counts.filter((entry) => entry.count > 0);
  const byValue = (a: FacetValueCount, b: FacetValueCount) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
  nonEmpty.sort(request.sort === 'value' ? byValue : (a, b) => b.count - a.count || byValue(a, b));
  return { distinct: nonEmpty.length, values: nonEmpty.slice(request.offset, request.offset + request.limit) };
}

/**
 * For a phrase facet, the search plus one value's phrase: what a count must equal, since
 * the phrase also finds records where the value is part of a longer name.
 */
export function phraseCriteria(deployment: Deployment, facet: FacetDef, value: string, base: Criteria): Criteria | undefined {
  if (facet.criterion.kind !== 'phrase') return undefined;
  const { param: name } = facet.criterion;
  const param = deployment.params.find((candidate) => candidate.name === name);
  const phrase = facetValueParams(deployment, facet, value)?.[name];
  const query = phrase === undefined ? undefined : parseQuery(phrase);
  if (!param || param.kind !== 'text' || !query) return undefined;
  return { ...base, text: [...base.text, { columns: param.columns, query }], offset: 0, limit: 0 };
}
