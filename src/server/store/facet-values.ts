import type { FacetDef } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import { personName } from '../../formats/authors';
import { facetValueParams } from '../../formats/facet-params';
import { kindOf } from '../../formats/facet-kinds';
import { toPlainLine } from '../../formats/rich-text';
import { valuesOf } from '../../formats/text';
import { foldText } from '../../formats/fold-text';
import { normalizeKeyValue } from '../../formats/keys';
import { parseQuery } from '../query/parse';
import type { Criteria, FacetRequest, FacetSelection, FacetValueCount, Selector, StoredRecord } from './types';

/**
 * What both stores share about facets (src/deployments/facets.ts): the values a record is
 * counted under, how values group, order and page, and the criteria one value adds.
 */

/** The name facet values are stored under, beside the exact-match keys. */
export const facetKeyName = (facet: FacetDef) => `facet:${facet.name}`;

const maxValueLength = 300;

/** How a stored field value reads as a facet value (FacetDef `reading`). */
const readings: Record<NonNullable<FacetDef['reading']>, (raw: string) => string> = { 'person-name': personName };

/** Where a facet's values come from in a stored record; undefined for years (the date column) and yes/no keys. */
function sourceOf(facet: FacetDef): ((stored: StoredRecord) => string[]) | undefined {
  if (kindOf(facet).dated) return undefined;
  const reading = facet.reading ? readings[facet.reading] : undefined;
  if (facet.field && reading) return (stored) => valuesOf(stored.record[facet.field!]).map(reading);
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
export const isCaseless = (facet: FacetDef) => kindOf(facet).caseless;

/** Decades from years: `1994` counts in `1990s`. */
export const decadeOf = (year: string) => `${year.slice(0, 3)}0s`;

const byValue = (a: FacetValueCount, b: FacetValueCount) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
const byCount = (a: FacetValueCount, b: FacetValueCount) => b.count - a.count || byValue(a, b);

/** The values a request lists at all: those some matching record has, whose text contains `facet_contains`. */
function listed(counts: readonly FacetValueCount[], request: FacetRequest): FacetValueCount[] {
  const wanted = request.contains ? foldText(request.contains) : '';
  return counts.filter((entry) => entry.count > 0 && (!wanted || foldText(entry.value).includes(wanted)));
}

/** One page of values, by count (then A–Z) or A–Z, and how many distinct values there are. */
export function pageOfValues(counts: readonly FacetValueCount[], request: FacetRequest): { distinct: number; values: FacetValueCount[] } {
  const values = listed(counts, request).sort(request.sort === 'value' ? byValue : byCount);
  return { distinct: values.length, values: values.slice(request.offset, request.offset + request.limit) };
}

/** A broader value's count in the search, and over every record (an upper bound of its count in any search). */
export interface Recount {
  readonly count: number;
  readonly overall: number;
}

/**
 * One page of a broader facet's values (a phrase also finds longer names), ordered by
 * their own counts, so the values shown are the largest at every `facet_limit`. `held`
 * counts the matching records that hold each value, a lower bound of its own count. A
 * page's worth of values by that bound are recounted first; any other value is recounted
 * only if its count over every record (or a store's bound of it: `overall`, known from an
 * earlier recount or from the index) and the number of matching records leave it a chance
 * to enter the page. The plan yields the
 * values to recount and is given their counts (runPlan, runPlanAsync), so either store
 * drives it its own way.
 */
export function* broaderPage(
  held: readonly FacetValueCount[],
  request: FacetRequest,
  matching: number,
  overall: (value: string) => number | undefined,
): Generator<readonly string[], { distinct: number; values: FacetValueCount[] }, readonly Recount[]> {
  const candidates = listed(held, request);
  const counted: FacetValueCount[] = [];
  function* add(values: readonly string[]): Generator<readonly string[], void, readonly Recount[]> {
    if (values.length === 0) return;
    const counts = yield values;
    values.forEach((value, i) => counted.push({ value, count: counts[i]!.count }));
  }
  if (request.sort === 'value') {
    yield* add(
      candidates
        .sort(byValue)
        .slice(request.offset, request.offset + request.limit)
        .map(({ value }) => value),
    );
    return { distinct: candidates.length, values: counted };
  }
  candidates.sort(byCount);
  const needed = request.offset + request.limit;
  yield* add(candidates.slice(0, needed).map(({ value }) => value));
  if (candidates.length > needed) {
    // The page's last value so far: a value can only enter the page by beating it.
    const last = [...counted].sort(byCount)[needed - 1]!;
    const couldEnter = ({ value }: FacetValueCount) => {
      const bound = Math.min(matching, overall(value) ?? Infinity);
      return bound > last.count || (bound === last.count && value < last.value);
    };
    yield* add(
      candidates
        .slice(needed)
        .filter(couldEnter)
        .map(({ value }) => value),
    );
  }
  return { distinct: candidates.length, values: counted.sort(byCount).slice(request.offset, needed) };
}

type Plan<T> = Generator<readonly string[], T, readonly Recount[]>;

export function runPlan<T>(plan: Plan<T>, recount: (values: readonly string[]) => Recount[]): T {
  let step = plan.next([]);
  while (!step.done) step = plan.next(recount(step.value));
  return step.value;
}

export async function runPlanAsync<T>(plan: Plan<T>, recount: (values: readonly string[]) => Promise<Recount[]>): Promise<T> {
  let step = plan.next([]);
  while (!step.done) step = plan.next(await recount(step.value));
  return step.value;
}

/** The facet's own selection, if the search has one. */
export const selectionOf = (criteria: Criteria, facet: string): FacetSelection | undefined =>
  criteria.selections?.find((selection) => selection.facet === facet);

/** The search with one facet's own selection left out: what that facet's values are counted over. */
export function withoutSelection(criteria: Criteria, facet: string): Criteria {
  if (!selectionOf(criteria, facet)) return criteria;
  const rest = criteria.selections!.filter((selection) => selection.facet !== facet);
  const { selections: _, ...others } = criteria;
  return rest.length ? { ...others, selections: rest } : others;
}

/** The search (paging aside) with one selector added: what a count of that value must equal. */
export const withSelector = (criteria: Criteria, selector: Selector): Criteria => ({
  ...criteria,
  text: [...criteria.text, ...selector.text],
  exact: [...criteria.exact, ...selector.exact],
  dates: [...criteria.dates, ...selector.dates],
  offset: 0,
  limit: 0,
});

/** What one value of a broader (phrase) facet selects: its parameter's phrase. */
export function phraseSelector(deployment: Deployment, facet: FacetDef, value: string): Selector | undefined {
  if (facet.criterion.kind !== 'phrase') return undefined;
  const { param: name } = facet.criterion;
  const param = deployment.params.find((candidate) => candidate.name === name);
  const phrase = facetValueParams(deployment, facet, value)?.[name];
  const query = phrase === undefined ? undefined : parseQuery(phrase);
  if (!param || param.kind !== 'text' || !query) return undefined;
  return { text: [{ columns: param.columns, query }], exact: [], dates: [] };
}
