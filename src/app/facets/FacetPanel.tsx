import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { ApiAuth } from '../../client/auth';
import { queryString } from '../../client/urls';
import type { FacetDef } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import { facetValueParams } from '../../formats/facet-params';
import type { FacetCounts } from '../../formats/facets-response';
import { useApiAuth, useBaseUrl, useHasFacets } from '../shell/config-context';
import type { NavigationState } from '../shell/navigation-state';
import { formatNumber } from '../ui/format';
import type { Entries } from '../search/query-params';
import { isSelected, offeredFacets, selectedValues, toggledEntries, valueLabel } from './facet-selection';
import { useFacetValues, useLazyCounts, useServerFacets, type FacetListOptions } from './facets-queries';
import './facets.css';

interface FacetPanelProps {
  readonly deployment: Deployment;
  readonly entries: Entries;
}

/** Wide screens show the filters beside the results; narrow ones start with them folded away. */
const startsOpen = () => typeof window === 'undefined' || window.matchMedia('(min-width: 60rem)').matches;

/**
 * Filters beside the results: each facet a fieldset of checkboxes with counts. With a
 * server that offers `/facets`, every facet and exact counts; with any other spec server,
 * the facets whose values are known, counted one value at a time when opened.
 */
export function FacetPanel({ deployment, entries }: FacetPanelProps) {
  const serverFacets = useHasFacets(deployment);
  const baseUrl = useBaseUrl(deployment);
  const auth = useApiAuth(deployment);
  const facets = offeredFacets(deployment, serverFacets);
  const overview = useServerFacets(deployment, baseUrl, entries, auth, serverFacets);
  const [open, setOpen] = useState(startsOpen);
  if (facets.length === 0) return null;

  const shared = { deployment, entries, baseUrl, auth };
  return (
    <details className="facets" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="facets__summary">Filters</summary>
      {serverFacets ? (
        overview.isError ? (
          <p className="facets__note">Counts are unavailable: {overview.error.message}</p>
        ) : (
          facets.map((facet) => {
            const counts = overview.data?.facets.find((candidate) => candidate.name === facet.name);
            return <ServerFacet key={facet.name} facet={facet} counts={counts} {...shared} />;
          })
        )
      ) : (
        facets.map((facet) => <LazyFacet key={facet.name} facet={facet} {...shared} />)
      )}
    </details>
  );
}

interface FacetProps {
  readonly deployment: Deployment;
  readonly entries: Entries;
  readonly facet: FacetDef;
  readonly baseUrl: string;
  readonly auth: ApiAuth | undefined;
}

interface ValueRow {
  readonly value: string;
  readonly count: number | undefined;
}

function ServerFacet({ counts, ...props }: FacetProps & { counts: FacetCounts | undefined }) {
  const { deployment, entries, facet, baseUrl, auth } = props;
  const [options, setOptions] = useState<FacetListOptions>();
  const more = useFacetValues(deployment, baseUrl, entries, facet, options, auth);
  const shown = (options && more.data) || counts;
  if (!shown || (shown.distinct === 0 && selectedValues(deployment, facet, entries).length === 0)) return null;
  const sort = options?.sort ?? 'count';
  const limit = options?.limit ?? shown.values.length;
  return (
    <FacetValues {...props} rows={shown.values} busy={more.isFetching}>
      <div className="facets__actions">
        {shown.more && (
          <button type="button" className="button button--quiet" onClick={() => setOptions({ limit: Math.min(100, limit + 40), sort })}>
            Show more
          </button>
        )}
        {shown.distinct > 1 && (
          <button type="button" className="button button--quiet" aria-pressed={sort === 'value'} onClick={() => setOptions({ limit, sort: sort === 'value' ? 'count' : 'value' })}>
            A–Z
          </button>
        )}
      </div>
    </FacetValues>
  );
}

function LazyFacet(props: FacetProps) {
  const { deployment, entries, facet, baseUrl, auth } = props;
  const [open, setOpen] = useState(false);
  const counts = useLazyCounts(deployment, baseUrl, entries, facet, open, auth);
  const rows = (facet.values ?? []).map((value) => ({ value, count: counts.data?.get(value) }));
  return (
    <details className="facets__lazy" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{facet.label}</summary>
      <FacetValues {...props} rows={rows} busy={counts.isFetching} />
    </details>
  );
}

function FacetValues({ deployment, entries, facet, rows, busy, children }: FacetProps & { rows: readonly ValueRow[]; busy: boolean; children?: ReactNode }) {
  const navigate = useNavigate();
  const listed = new Set(rows.map((row) => row.value));
  const all = [...selectedValues(deployment, facet, entries).filter((value) => !listed.has(value)).map((value) => ({ value, count: undefined })), ...rows];
  const toggle = (params: Record<string, string>, tick: boolean) => {
    const state: NavigationState = { keepFocus: true };
    void navigate(`/${deployment.slug}${queryString(toggledEntries(entries, params, tick))}`, { state });
  };
  return (
    <fieldset className="facets__facet" aria-busy={busy}>
      <legend>{facet.label}</legend>
      <ul className="facets__values">
        {all.map(({ value, count }) => {
          const params = facetValueParams(deployment, facet, value);
          if (!params) return null;
          const checked = isSelected(entries, params);
          return (
            <li key={value}>
              <label className="facets__value">
                <input type="checkbox" checked={checked} onChange={(event) => toggle(params, event.target.checked)} />
                <span className="facets__label">{valueLabel(facet, value)}</span>
                {count !== undefined && <span className="facets__count">{formatNumber(count)}</span>}
              </label>
            </li>
          );
        })}
      </ul>
      {children}
    </fieldset>
  );
}
