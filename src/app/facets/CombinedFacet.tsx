import { useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ApiAuth } from '../../client/auth';
import { queryString } from '../../client/urls';
import type { FacetDef } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import { facetValueParams, isSelected } from '../../formats/facet-params';
import type { FacetChoice, FacetCounts } from '../../formats/facets-response';
import type { NavigationState } from '../navigation/navigation-state';
import { plainLine } from '../../formats/record-text';
import { formatNumber } from '../ui/format';
import { RichText } from '../ui/RichText';
import type { Entries } from '../navigation/query-params';
import { facetFilters, rowState, withRowState, type ValueState } from './combined-selection';
import { toggledEntries, valueLabel } from './facet-selection';
import { useFacetPages } from './combined-queries';

/** A facet of the filter column of a server that combines facets, with its counts from the column's request. */
export interface FacetSectionProps {
  readonly deployment: Deployment;
  readonly entries: Entries;
  readonly facet: FacetDef;
  readonly counts: FacetCounts | undefined;
  readonly baseUrl: string;
  readonly auth: ApiAuth | undefined;
}

/** Typing in a facet's search box asks the server once the researcher pauses. */
const searchDelay = 300;

function useDebounced(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return value === '' ? '' : settled;
}

interface Row {
  readonly value: string;
  readonly count: number | undefined;
  /** The spellings the value stands for (its own first), where the server groups several. */
  readonly variants?: readonly string[];
}

const spellingsOf = (row: Row) => row.variants ?? [row.value];

/** Values in order, each once: the first mention wins. */
function uniqueRows(rows: readonly Row[]): Row[] {
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.value) && Boolean(seen.add(row.value)));
}

/**
 * One facet of a server that combines facets: ticked values are OR'd, each value can be
 * excluded, the counts leave the facet's own choices out (so the other values keep theirs),
 * the chosen values stay listed, a search box looks through all values and "Show more"
 * continues in count order.
 */
export function CombinedFacet({
  deployment,
  entries,
  facet,
  counts,
  baseUrl,
  auth,
  typed,
  onTypedChange: setTyped,
}: FacetSectionProps & {
  /** The facet's value search as typed, kept by the panel: it outlives this facet's remount (a layout change, the sheet closed). */
  readonly typed: string;
  readonly onTypedChange: (typed: string) => void;
}) {
  const navigate = useNavigate();
  const searchId = useId();
  const contains = useDebounced(typed.trim(), searchDelay);
  const [showMore, setShowMore] = useState(false);
  const searching = contains !== '';
  const pages = useFacetPages(
    deployment,
    baseUrl,
    entries,
    facet,
    { offset: counts?.values.length ?? 0, contains },
    searching || showMore,
    auth,
  );
  const filters = facetFilters(entries, facet.name);
  const chosen = [...filters.selected, ...filters.excluded];
  if (!counts && chosen.length === 0) return null;

  const paged = pages.data?.pages.flatMap((page) => page?.values ?? []) ?? [];
  const listed: Row[] = searching ? paged : [...(counts?.values ?? []), ...(showMore ? paged : [])];
  const choices = new Map<string, FacetChoice>(
    [...(counts?.selected ?? []), ...(counts?.excluded ?? [])].map((choice) => [choice.value, choice]),
  );
  // Chosen values first, with the counts the server gives for them, then the values counted; a
  // chosen spelling of a listed row (a link may hold any) is that row.
  const rowOf = new Map(listed.flatMap((row) => spellingsOf(row).map((spelling) => [spelling, row] as const)));
  const pinned = chosen.map((value) => rowOf.get(value) ?? { value, count: choices.get(value)?.count });
  const rows = uniqueRows([...pinned, ...listed]);
  if (!searching && typed === '' && rows.length === 0) return null;

  const more = searching || showMore ? pages.hasNextPage : counts?.more === true;
  const searchable = typed !== '' || (counts !== undefined && counts.distinct > counts.values.length);
  // A value the search already holds by the spec's own parameter (the advanced form, a link) shows ticked too.
  const bySpecParams = (value: string) => {
    const params = facetValueParams(deployment, facet, value);
    return params && isSelected(entries, params) ? params : undefined;
  };
  const change = (row: Row, state: ValueState) => {
    const params = bySpecParams(row.value);
    const base = params && state !== 'select' ? toggledEntries(entries, params, false) : entries;
    const navigation: NavigationState = { keepFocus: true };
    const next = withRowState(base, facet.name, row.value, spellingsOf(row), state);
    void navigate(`/${deployment.slug}${queryString(next)}`, { state: navigation });
  };
  const found = pages.data?.pages[0]?.distinct;

  return (
    <fieldset className="facets__facet" aria-busy={pages.isFetching}>
      <legend>{facet.label}</legend>
      {searchable && (
        <div className="facets__search">
          <label htmlFor={searchId} className="visually-hidden">
            Search {facet.label.toLowerCase()} values
          </label>
          <input
            id={searchId}
            type="search"
            placeholder="Find a value"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
          />
        </div>
      )}
      {/* Always present, so the number of matching values is announced as the search settles. */}
      <p role="status" className="facets__found">
        {searching && found !== undefined && !pages.isPlaceholderData
          ? `${formatNumber(found)} ${found === 1 ? 'value contains' : 'values contain'} “${contains}”`
          : ''}
      </p>
      <ul className="facets__values">
        {rows.map((row, index) => {
          const { value, count } = row;
          const own = rowState(filters, spellingsOf(row));
          const state = own === 'none' && bySpecParams(value) ? 'select' : own;
          const label = valueLabel(facet, value);
          const others = spellingsOf(row).filter((spelling) => spelling !== value);
          const variantsId = `${searchId}-variants-${index}`;
          return (
            <li key={value} className={`facets__row${state === 'exclude' ? ' facets__row--excluded' : ''}`}>
              <label className="facets__value">
                <input
                  type="checkbox"
                  checked={state === 'select'}
                  aria-describedby={others.length > 0 ? variantsId : undefined}
                  onChange={(event) => change(row, event.target.checked ? 'select' : 'none')}
                />
                <span className="facets__label">
                  <RichText text={label} inline />
                </span>
                {count !== undefined && <span className="facets__count">{formatNumber(count)}</span>}
              </label>
              <button
                type="button"
                className="facets__exclude"
                aria-pressed={state === 'exclude'}
                onClick={() => change(row, state === 'exclude' ? 'none' : 'exclude')}
              >
                Exclude
                <span className="visually-hidden"> {plainLine(label)}</span>
              </button>
              {others.length > 0 && (
                <p id={variantsId} className="facets__variants">
                  Also written {others.join('; ')}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      {more && (
        <div className="facets__actions">
          <button
            type="button"
            className="button button--quiet"
            onClick={() => (searching || showMore ? void pages.fetchNextPage() : setShowMore(true))}
          >
            Show more<span className="visually-hidden"> {facet.label.toLowerCase()} values</span>
          </button>
        </div>
      )}
    </fieldset>
  );
}
