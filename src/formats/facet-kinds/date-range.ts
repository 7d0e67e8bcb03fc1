import type { FacetCriterion } from '../../deployments/facets';
import { formatDay } from '../dates';
import { asStored, type FacetKind } from './facet-kind';

type DateRange = Extract<FacetCriterion, { kind: 'date-range' }>;

const patterns = { year: /^(\d{4})$/, decade: /^(\d{3})0s$/ } as const;

/** A year's value (`1994`), or the decade it counts in (`1990s`). */
const valueOfYear = (unit: DateRange['unit'], year: string) => (unit === 'year' ? year : `${year.slice(0, 3)}0s`);

/**
 * A year (`2015`) or decade (`2010s`) selected as the inclusive range of its days on a date
 * field (`publication_date_start` and `_end`, in the deployment's date format), counted from
 * the records' dates.
 */
export const dateRangeKind: FacetKind<DateRange> = {
  params: (deployment, { field, unit }, value) => {
    const match = patterns[unit].exec(value);
    if (!match) return undefined;
    const first = unit === 'year' ? Number(match[1]) : Number(match[1]) * 10;
    const last = unit === 'year' ? first : first + 9;
    return {
      [`${field}_start`]: formatDay({ year: first, month: 1, day: 1 }, deployment.dateFormat),
      [`${field}_end`]: formatDay({ year: last, month: 12, day: 31 }, deployment.dateFormat),
    };
  },
  paramNames: ({ field }) => [`${field}_start`, `${field}_end`],
  // The start bound names the value; whether the end bound closes it is the caller's check.
  valuesIn: (_, { field, unit }, entries) =>
    entries.filter(([name]) => name === `${field}_start`).map(([, value]) => valueOfYear(unit, /(\d{4})/.exec(value)?.[1] ?? '')),
  counts: ({ field, unit }) => ({ from: 'dates', field, group: (year) => valueOfYear(unit, year) }),
  caseless: false,
  suggests: () => undefined,
  chipWords: asStored,
};
