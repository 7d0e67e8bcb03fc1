import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isRefusal } from '../../client/errors';
import { queryString } from '../../client/urls';
import { deployments, displayName } from '../../deployments/registry';
import { useDocumentTitle, useFocusOnNavigation } from '../navigation/navigation-focus';
import { formatCount, formatNumber } from '../ui/format';
import { CatalogGroup, catalogAnchor } from './CatalogGroup';
import { useAppConfig } from '../config/config-context';
import { catalogSearches, useCatalogStates, type CatalogState } from './catalog-search';
import './all.css';

type Entries = [string, string][];

const entriesOf = (search: string): Entries => [...new URLSearchParams(search)].filter(([, value]) => value.trim() !== '');

/** A catalog's exact count (its X-Total-Count), or the records it sent where it leaves the count out. */
function totalOf(state: CatalogState): number | undefined {
  return state?.status === 'success' && state.data ? (state.data.total ?? state.data.records.length) : undefined;
}

/** The refusal a catalog answered the search with (a 4xx: the same search is refused again), in its words. */
function refusalOf(state: CatalogState): string | undefined {
  return state?.status === 'error' && isRefusal(state.error) ? state.error.message : undefined;
}

/**
 * One search across every catalog: each searched through its own API at the same time, its
 * exact count and best results in a group of its own (relevance scores of different
 * collections do not compare, so they are never merged into one list).
 */
export function AllCatalogsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const entries = useMemo(() => entriesOf(location.search), [location.search]);
  const q = entries.find(([name]) => name === 'q')?.[1] ?? '';
  const [text, setText] = useState(q);
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnNavigation(heading);
  useDocumentTitle(q ? `${q} – All catalogs` : 'All catalogs');
  const config = useAppConfig();
  const searches = useMemo(() => catalogSearches(config, entries), [config, entries]);
  const states = useCatalogStates(searches);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Criteria the box does not hold (from a link, or carried from a catalog) stay in the search.
    const kept = entries.filter(([name]) => name !== 'q' && name !== 'page');
    void navigate(`/all${queryString([['q', text.trim()], ...kept])}`);
  }

  const searched = searches.filter((search) => !search.problem);
  const totals = states
    .flatMap((state, index) => (searches[index]!.problem ? [] : [totalOf(state)]))
    .filter((total) => total !== undefined);
  const failed = states.filter((state, index) => !searches[index]!.problem && state?.status === 'error').length;
  const pending = searched.length - totals.length - failed;
  const holding = totals.filter((total) => total > 0).length;
  const notSearched = searches.length - searched.length;
  // A box no catalog can search as typed (a misspelt field) is said once, beside the box.
  // So is a refusal several catalogs answered alike (a search too long for any of them):
  // once, not once per catalog, and with no offer to try again what is refused again.
  const refusals = states.map((state, index) => (searches[index]!.problem ? undefined : refusalOf(state)));
  const sharedRefusals = [...new Set(refusals)].filter(
    (refusal): refusal is string => refusal !== undefined && refusals.filter((other) => other === refusal).length > 1,
  );
  const refusedByAll = sharedRefusals.length === 1 && refusals.filter(Boolean).length === searched.length;
  const boxProblems =
    searched.length === 0
      ? [...new Set(searches.map((search) => search.problem))]
      : sharedRefusals.map((refusal) => {
          const by = refusals.filter((other) => other === refusal).length;
          return `${by === searches.length ? 'Every catalog' : `${formatNumber(by)} catalogs`} refused this search: ${refusal}`;
        });
  const summary =
    entries.length === 0 || searched.length === 0 || refusedByAll
      ? ''
      : pending > 0
        ? `Searching ${searched.length} catalogs… ${totals.length + failed} answered.`
        : `${formatCount(totals.reduce((sum, total) => sum + total, 0))} in ${formatNumber(holding)} of ${searches.length} catalogs` +
          `${failed ? `; ${failed} could not be searched` : ''}${notSearched ? `; ${notSearched} not searched` : ''}.`;

  return (
    <>
      <h1 className="page-title" ref={heading} tabIndex={-1}>
        All catalogs
      </h1>
      <form className="search-form" role="search" aria-label="Search all catalogs" onSubmit={onSubmit}>
        <div className="search-form__main">
          <label htmlFor="all-q" className="search-form__label">
            Search
          </label>
          <div className="search-form__row">
            <input
              id="all-q"
              name="q"
              type="search"
              aria-describedby={boxProblems.length > 0 ? 'all-q-problem' : undefined}
              aria-invalid={boxProblems.length > 0 ? true : undefined}
              value={text}
              onChange={(event) => setText(event.target.value)}
              enterKeyHint="search"
            />
            <button type="submit" className="button button--primary">
              Search
            </button>
          </div>
          {boxProblems.length > 0 && (
            <p id="all-q-problem" className="field__error" role="alert">
              {boxProblems.join(' ')}
            </p>
          )}
        </div>
      </form>
      <p className="all-intro">
        Searches all {deployments.length} catalogs at once. Each ranks its own records (relevance scores of different catalogs do not
        compare), so each shows its best results in a group of its own.
      </p>
      <p role="status" className="all-summary">
        {summary}
      </p>
      {entries.length > 0 && searched.length > 0 && !refusedByAll && (
        <>
          <nav aria-label="Catalogs" className="all-overview">
            <ul>
              {searches.map((search, index) => {
                const total = totalOf(states[index]);
                return (
                  <li key={search.deployment.key}>
                    <a href={`#${catalogAnchor(search.deployment)}`}>{displayName(search.deployment)}</a>{' '}
                    <span className="all-overview__count">
                      {search.problem
                        ? 'not searched'
                        : total !== undefined
                          ? formatCount(total)
                          : refusals[index] !== undefined
                            ? 'refused the search'
                            : states[index]?.status === 'error'
                              ? 'could not be searched'
                              : 'searching…'}
                    </span>
                  </li>
                );
              })}
            </ul>
          </nav>
          {searches.map((search, index) => (
            <CatalogGroup
              key={search.deployment.key}
              search={search}
              refusalSaid={refusals[index] !== undefined && sharedRefusals.includes(refusals[index])}
            />
          ))}
        </>
      )}
    </>
  );
}
