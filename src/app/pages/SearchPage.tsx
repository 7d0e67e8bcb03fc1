import { lazy, Suspense, useMemo, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { groupByWork, withoutGrouping } from '../../client/records';
import { queryString, searchUrl } from '../../client/urls';
import { displayName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { isHttpUrl } from '../../formats/text';
import { useFacetSuggestions } from '../facets/facets-queries';
import { useApiAuth, useBaseUrl, useFeedUrl, useHasFacets } from '../config/config-context';
import { useDocumentTitle } from '../navigation/navigation-focus';
import { readNavigationState } from '../navigation/navigation-state';
import { SearchHistory } from '../history/SearchHistory';
import { CiteButton } from '../cite/CiteButton';
import { ExportSelection } from '../export/ExportSelection';
import { SelectCheckbox } from '../selection/SelectCheckbox';
import { SelectionBar } from '../selection/SelectionBar';
import { SelectPageCheckbox } from '../selection/SelectPageCheckbox';
import { serverFieldError } from '../search/field-errors';
import { formParamNames, mainParam } from '../search/form-params';
import { searchIdentity } from '../search/paging';
import { entriesOf, firstValues, nonEmpty } from '../navigation/query-params';
import { ActiveCriteria } from '../search/ActiveCriteria';
import { SpellingSuggestion } from '../search/SpellingSuggestion';
import { Results } from '../search/Results';
import { SearchForm } from '../search/SearchForm';
import { useSearchBox } from '../search/use-search-box';
import { usePrefetchNext, useRecordPage } from '../search/search-queries';

// The filter column loads beside the first results rather than delaying them.
const FacetPanel = lazy(() => import('../facets/FacetPanel').then((module) => ({ default: module.FacetPanel })));
// The whole-result-set download (and its worker) loads only once there are results.
const ResultSetDownload = lazy(() => import('../export/ResultSetDownload').then((module) => ({ default: module.ResultSetDownload })));

/** The search's parameters with `group=work`, unless the address names a grouping itself. */
const withGrouping = (entries: readonly (readonly [string, string])[]) =>
  entries.some(([name]) => name === groupByWork[0]) ? entries : [...entries, groupByWork];

export function SearchPage({ deployment }: { deployment: Deployment }) {
  const location = useLocation();
  const baseUrl = useBaseUrl(deployment);
  const auth = useApiAuth(deployment);
  const feedUrl = useFeedUrl(deployment);
  const entries = useMemo(() => nonEmpty(entriesOf(location.search)), [location.search]);
  const linkedUrl = readNavigationState(location.state).apiUrl;
  // A page reached through a Link header is fetched from exactly that URL; only a new
  // search (or a shared link, which carries no history state) builds the first URL.
  // Asked grouped by work: a server that does not group answers records (client/records.ts fetchWorksPage).
  const apiUrl = linkedUrl && isHttpUrl(linkedUrl) ? linkedUrl : searchUrl(baseUrl, withGrouping(entries));
  const identity = searchIdentity(entries);
  const extensions = useHasFacets(deployment);
  // A link (or history entry) may carry fields or no words in `q`: rewrite the one, refuse the other.
  const box = useSearchBox(deployment, entries, extensions);
  const query = useRecordPage(deployment, identity, apiUrl, auth, box.kind === 'as-is');
  usePrefetchNext(deployment, identity, query.data && !query.isPlaceholderData ? query.data.links.next : undefined, auth);

  const badRequest = useMemo(
    () =>
      serverFieldError(
        query.error,
        formParamNames(deployment),
        entries.map(([name]) => name),
      ),
    [query.error, deployment, entries],
  );
  const main = mainParam(deployment);
  const serverErrors = useMemo(
    () => ({
      ...(badRequest?.field ? { [badRequest.field]: badRequest.description } : {}),
      ...(box.kind === 'problem' && main ? { [main.name]: box.message } : {}),
    }),
    [badRequest, box, main],
  );

  const [prefersAdvanced, setPrefersAdvanced] = useState(false);
  const suggestions = useFacetSuggestions(deployment, baseUrl, entries, auth, extensions);
  const mainQuery = main && firstValues(entries)[main.name];
  useDocumentTitle(mainQuery ? `${mainQuery} – ${displayName(deployment)}` : displayName(deployment));

  if (box.kind === 'fielded') return <Navigate replace to={`/${deployment.slug}${queryString(box.entries)}`} />;

  return (
    <>
      <h1 className="page-title">{displayName(deployment)}</h1>
      <SearchForm
        key={`${deployment.key}${location.search}`}
        deployment={deployment}
        entries={entries}
        serverErrors={serverErrors}
        prefersAdvanced={prefersAdvanced}
        onPrefersAdvancedChange={setPrefersAdvanced}
        suggestions={suggestions}
        extensions={extensions}
        completion={extensions ? { baseUrl, auth } : undefined}
      />
      {feedUrl && entries.length > 0 && (
        <p className="search-feed">
          <a href={feedUrl(new URLSearchParams(entries.filter(([name]) => name !== 'page')).toString())} type="application/atom+xml">
            Subscribe (Atom)
          </a>{' '}
          <span className="search-feed__hint">new records of this search, in a feed reader</span>
        </p>
      )}
      <ActiveCriteria deployment={deployment} entries={entries} extensions={extensions} />
      <SpellingSuggestion
        deployment={deployment}
        entries={entries}
        baseUrl={baseUrl}
        auth={auth}
        enabled={extensions}
        total={query.data && !query.isPlaceholderData ? query.data.total : undefined}
      />
      <SearchHistory deployment={deployment} entries={entries} />
      <div className="search-layout">
        <Suspense fallback={null}>
          <FacetPanel deployment={deployment} entries={entries} />
        </Suspense>
        <div className="search-layout__results">
          <Results
            deployment={deployment}
            entries={entries}
            query={query}
            badRequest={badRequest}
            notRun={box.kind === 'problem' ? box.message : undefined}
            selectPage={(records, generated) => <SelectPageCheckbox deployment={deployment} records={records} generated={generated} />}
            selectRecord={(record, generated) => <SelectCheckbox deployment={deployment} record={record} generated={generated} />}
          />
          {query.data && query.data.records.length > 0 && (
            <Suspense fallback={null}>
              <ResultSetDownload
                deployment={deployment}
                searchUrl={withoutGrouping(query.data.url)}
                total={query.data.total}
                works={query.data.totalWorks}
                auth={auth}
              />
            </Suspense>
          )}
        </div>
      </div>
      {/* After the results, sticking to the bottom of the screen while they scroll: always in view, never over the last result. */}
      <SelectionBar
        deployment={deployment}
        actions={(records, generated) => (
          <>
            <CiteButton deployment={deployment} records={records} label="Cite selected" generated={generated} />
            <ExportSelection deployment={deployment} records={records} generated={generated} />
          </>
        )}
      />
    </>
  );
}
