import { useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { ApiAuth } from '../../client/auth';
import { queryString } from '../../client/urls';
import { yearFacet, type FacetDef } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import { facetValueParams, isSelected, selectedValues } from '../../formats/facet-params';
import type { FacetCounts } from '../../formats/facets-response';
import { useApiAuth, useBaseUrl, useHasFacets } from '../config/config-context';
import type { NavigationState } from '../navigation/navigation-state';
import { formatNumber } from '../ui/format';
import { RichText } from '../ui/RichText';
import type { Entries } from '../navigation/query-params';
import { CombinedFacet } from './CombinedFacet';
import { offeredFacets, toggledEntries, valueLabel } from './facet-selection';
import { useServerFacets } from './facets-queries';
import { useFacetValues, useLazyCounts, type FacetListOptions } from './value-queries';
import { YearChart } from './YearChart';
import './facets.css';

interface FacetPanelProps {
  readonly deployment: Deployment;
  readonly entries: Entries;
}

/** Wide screens show the filters beside the results; narrow ones open them as a sheet. */
const wideQuery = '(min-width: 60rem)';

function useWide(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const media = window.matchMedia(wideQuery);
      media.addEventListener('change', changed);
      return () => media.removeEventListener('change', changed);
    },
    () => window.matchMedia(wideQuery).matches,
    () => true,
  );
}

/**
 * Filters beside the results (on a phone, in a sheet): each facet a fieldset of checkboxes
 * with counts. A server that combines facets (config.json's `facets` and `/facets` saying
 * `combinable`) gets multi-select facets with exclusion and search, and the year chart; one
 * with plain `/facets`, single-select facets with exact counts; any other spec server, the
 * facets whose values are known, counted one value at a time when opened.
 */
export function FacetPanel({ deployment, entries }: FacetPanelProps) {
  const serverFacets = useHasFacets(deployment);
  const baseUrl = useBaseUrl(deployment);
  const auth = useApiAuth(deployment);
  const facets = offeredFacets(deployment, serverFacets);
  const overview = useServerFacets(deployment, baseUrl, entries, auth, serverFacets);
  const answer = useLastAnswer(overview.data, deployment.key);
  const [typed, setTyped] = useFacetSearches(deployment.key);
  const wide = useWide();
  if (facets.length === 0) return null;

  const shared = { deployment, entries, baseUrl, auth };
  const countsOf = (facet: FacetDef) => answer?.facets.find((candidate) => candidate.name === facet.name);
  const years = yearFacet(deployment);
  const stale = overview.isError && answer && <StaleCounts message={overview.error.message} onRetry={() => void overview.refetch()} />;
  let content: ReactNode;
  if (!serverFacets) content = facets.map((facet) => <LazyFacet key={facet.name} facet={facet} {...shared} />);
  // Only a first failure replaces the filters; after one the filters stay, with their choices and a facet's typed search.
  else if (overview.isError && !answer) content = <p className="facets__note">Counts are unavailable: {overview.error.message}</p>;
  else if (answer?.combinable) {
    content = (
      <>
        {stale}
        {years && <YearChart facet={years} counts={countsOf(years)} {...shared} />}
        {facets
          .filter((facet) => facet !== years)
          .map((facet) => (
            <CombinedFacet
              key={facet.name}
              facet={facet}
              counts={countsOf(facet)}
              typed={typed(facet.name)}
              onTypedChange={(text) => setTyped(facet.name, text)}
              {...shared}
            />
          ))}
      </>
    );
  } else {
    content = (
      <>
        {stale}
        {facets.map((facet) => (
          <ServerFacet key={facet.name} facet={facet} counts={countsOf(facet)} {...shared} />
        ))}
      </>
    );
  }

  if (wide) {
    return (
      <section className="facets" aria-labelledby="filters-title">
        <h2 id="filters-title" className="facets__title">
          Filters
        </h2>
        {content}
      </section>
    );
  }
  const total = overview.data && !overview.isPlaceholderData && !overview.isFetching ? overview.data.total : undefined;
  return <FilterSheet total={total}>{content}</FilterSheet>;
}

/**
 * The counts of the last search of this catalog the server answered. A failed request drops
 * the previous search's counts that stood in while it ran, and with them the filters' state.
 */
function useLastAnswer<T>(data: T | undefined, catalog: string): T | undefined {
  const [last, setLast] = useState({ data, catalog });
  if (data !== undefined && (data !== last.data || catalog !== last.catalog)) setLast({ data, catalog });
  return data ?? (last.catalog === catalog ? last.data : undefined);
}

/**
 * Each facet's value search as typed, held here rather than by the facet: the facets are
 * mounted afresh when the layout changes (a window resized or a tablet turned across the
 * breakpoint, the sheet closed and opened), and the researcher's search should not go.
 */
function useFacetSearches(catalog: string): [(facet: string) => string, (facet: string, text: string) => void] {
  const [searches, setSearches] = useState({ catalog, typed: new Map<string, string>() });
  const current = searches.catalog === catalog ? searches.typed : undefined;
  const set = (facet: string, text: string) =>
    setSearches((previous) => ({ catalog, typed: new Map(previous.catalog === catalog ? previous.typed : undefined).set(facet, text) }));
  return [(facet) => current?.get(facet) ?? '', set];
}

/** Said above filters whose counts are an earlier search's, since this one's request failed. */
function StaleCounts({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="facets__stale" role="alert">
      <p>The counts below are from before your last change: {message}</p>
      <button type="button" className="button button--quiet" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/**
 * The filters on a narrow screen: a modal sheet (focus stays inside, Escape closes, focus
 * goes back to the Filters button) whose "Show N results" closes it and moves focus to the
 * results heading, which the list starts under.
 */
function FilterSheet({ total, children }: { total: number | undefined; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const toResults = useRef(false);
  const [open, setOpen] = useState(false);
  const close = (results: boolean) => {
    toResults.current = results;
    dialog.current?.close();
  };
  return (
    <div className="facets-sheet">
      <button
        ref={opener}
        type="button"
        className="button facets-sheet__open"
        aria-haspopup="dialog"
        onClick={() => {
          dialog.current?.showModal();
          setOpen(true);
        }}
      >
        Filters
      </button>
      <dialog
        ref={dialog}
        className="facets facets--sheet"
        aria-labelledby="filters-title"
        onClose={() => {
          setOpen(false);
          const target = toResults.current ? document.getElementById('results') : opener.current;
          toResults.current = false;
          target?.focus();
        }}
      >
        <div className="facets-sheet__head">
          <h2 id="filters-title" className="facets__title">
            Filters
          </h2>
          <button type="button" className="button button--quiet" onClick={() => close(false)}>
            Close
          </button>
        </div>
        <div className="facets-sheet__body">{open && children}</div>
        <div className="facets-sheet__foot">
          <button type="button" className="button button--primary facets-sheet__show" onClick={() => close(true)}>
            {total === undefined ? 'Show results' : `Show ${formatNumber(total)} ${total === 1 ? 'result' : 'results'}`}
          </button>
        </div>
      </dialog>
    </div>
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
          <button
            type="button"
            className="button button--quiet"
            aria-pressed={sort === 'value'}
            onClick={() => setOptions({ limit, sort: sort === 'value' ? 'count' : 'value' })}
          >
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

function FacetValues({
  deployment,
  entries,
  facet,
  rows,
  busy,
  children,
}: FacetProps & { rows: readonly ValueRow[]; busy: boolean; children?: ReactNode }) {
  const navigate = useNavigate();
  const listed = new Set(rows.map((row) => row.value));
  const all = [
    ...selectedValues(deployment, facet, entries)
      .filter((value) => !listed.has(value))
      .map((value) => ({ value, count: undefined })),
    ...rows,
  ];
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
                <span className="facets__label">
                  <RichText text={valueLabel(facet, value)} inline />
                </span>
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
