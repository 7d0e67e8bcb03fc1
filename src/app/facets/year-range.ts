import type { FacetDef } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import { formatDay, parseDateParam } from '../../formats/dates';
import { facetParamNames } from '../../formats/facet-params';
import type { FacetValue } from '../../formats/facets-response';
import { withValues, type Entries } from '../navigation/query-params';

/**
 * The publication-year chart's model: a range of whole years is the date criterion the
 * year facet selects by (`publication_date_start` / `_end`, in the deployment's format).
 */

export interface YearRange {
  readonly from?: number | undefined;
  readonly to?: number | undefined;
}

export interface YearCount {
  readonly year: number;
  readonly count: number;
}

/** The year facet's parameters, a range's start and end bounds (its kind's, formats/facet-kinds/date-range.ts). */
function dateParams(facet: FacetDef): [start: string, end: string] {
  const [start = 'publication_date_start', end = 'publication_date_end'] = facetParamNames(facet);
  return [start, end];
}

/** The years the search's date criterion covers (either bound may be open); unreadable dates count as open. */
export function yearRangeOf(deployment: Deployment, facet: FacetDef, entries: Entries): YearRange {
  const [start, end] = dateParams(facet);
  const year = (name: string) => {
    const value = entries.find(([entry]) => entry === name)?.[1];
    return value === undefined ? undefined : parseDateParam(value.trim(), deployment.dateFormat)?.year;
  };
  return { from: year(start), to: year(end) };
}

/** The search restricted to whole years (1 January of `from` to 31 December of `to`), back on page 1. */
export function withYearRange(deployment: Deployment, facet: FacetDef, entries: Entries, range: YearRange): [string, string][] {
  const [start, end] = dateParams(facet);
  const low = range.from !== undefined && range.to !== undefined ? Math.min(range.from, range.to) : range.from;
  const high = range.from !== undefined && range.to !== undefined ? Math.max(range.from, range.to) : range.to;
  return withValues(entries, {
    page: undefined,
    [start]: low === undefined ? undefined : formatDay({ year: low, month: 1, day: 1 }, deployment.dateFormat),
    [end]: high === undefined ? undefined : formatDay({ year: high, month: 12, day: 31 }, deployment.dateFormat),
  });
}

/** The search without its publication-date criterion: what the chart counts, so years outside the range stay drawn. */
export function withoutYearRange(facet: FacetDef, entries: Entries): [string, string][] {
  const [start, end] = dateParams(facet);
  return withValues(entries, { [start]: undefined, [end]: undefined, page: undefined });
}

/** One bar per year from the first to the last year counted, years without records at 0. */
export function yearBars(values: readonly Pick<FacetValue, 'value' | 'count'>[]): YearCount[] {
  const counts = new Map<number, number>();
  for (const { value, count } of values) {
    if (/^\d{4}$/.test(value)) counts.set(Number(value), (counts.get(Number(value)) ?? 0) + count);
  }
  if (counts.size === 0) return [];
  const years = [...counts.keys()];
  const first = Math.min(...years);
  const last = Math.max(...years);
  return Array.from({ length: last - first + 1 }, (_, index) => ({ year: first + index, count: counts.get(first + index) ?? 0 }));
}

/**
 * The From/To inputs read as a range, or why they cannot be: a reversed pair is refused
 * rather than swapped, since the researcher may have typed either year wrongly.
 */
export function readYearInputs(fromText: string, toText: string): { range: YearRange } | { error: string } {
  const from = fromText.trim();
  const to = toText.trim();
  const isYear = (text: string) => /^\d{4}$/.test(text);
  if ((from && !isYear(from)) || (to && !isYear(to))) return { error: 'Enter each year as four digits, such as 2010.' };
  if (from && to && Number(from) > Number(to)) return { error: `From ${from} is after To ${to}: enter the earlier year in From.` };
  return { range: { from: from ? Number(from) : undefined, to: to ? Number(to) : undefined } };
}
