import type { UseQueryResult } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useRef, type ReactNode } from 'react';
import type { RecordPage } from '../../client/records';
import { paramByName, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import type { GeneratedIds } from '../../formats/generated-mark';
import { useFocusOnNavigation } from '../navigation/navigation-focus';
import { ErrorState } from '../ui/ErrorState';
import { formatCount, formatNumber } from '../ui/format';
import { pagingOf } from './paging';
import { Pagination } from './Pagination';
import type { Entries } from '../navigation/query-params';
import { fieldTerms } from './highlight-terms';
import { ResultItem } from './ResultItem';
import { ResultsHeader } from './ResultsHeader';
import { useRestoreResultsPosition } from './results-position';
import { recordsAndWorks, workRows } from '../ui/works';

// A work's other versions load with the first page that has any (most pages have none).
const WorkVersions = lazy(() => import('../ui/WorkVersions').then((module) => ({ default: module.WorkVersions })));

interface ResultsProps {
  readonly deployment: Deployment;
  readonly entries: Entries;
  readonly query: UseQueryResult<RecordPage>;
  readonly badRequest: { field: string | undefined; description: string } | undefined;
  /** Why the search was not run (the message beside the box says the same). */
  readonly notRun?: string;
  /** The control that selects every record of the page, composed by the page. */
  readonly selectPage: (records: readonly ApiRecord[], generated: GeneratedIds) => ReactNode;
  /** The control that selects one record, shown at the start of its result. */
  readonly selectRecord: (record: ApiRecord, generated: boolean) => ReactNode;
}

function countText(query: UseQueryResult<RecordPage>, notRun: string | undefined): string {
  if (notRun) return '';
  if (query.data) {
    const { total, records } = query.data;
    // A server that leaves out X-Total-Count still tells us how many it sent.
    if (total === undefined) return `${formatNumber(records.length)} results on this page`;
    return recordsAndWorks(total, query.data) ?? formatCount(total);
  }
  return query.isPending ? 'Searching…' : '';
}

export function Results({ deployment, entries, query, badRequest, notRun, selectPage, selectRecord }: ResultsProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnNavigation(heading);
  const page = query.data;
  const loadingNext = query.isPlaceholderData;
  useRestoreResultsPosition(Boolean(page) && !loadingNext);
  const terms = useMemo(() => fieldTerms(deployment, entries), [deployment, entries]);
  const rows = useMemo(() => (page ? workRows(page) : []), [page]);

  return (
    <section className="results" aria-labelledby="results">
      <div className="results__header">
        <h2 id="results" ref={heading} tabIndex={-1}>
          Results
        </h2>
        {/* Always in the document, so changes to the count are announced. */}
        <p role="status" className="results__count">
          {countText(query, notRun)}
        </p>
        <ResultsHeader deployment={deployment} entries={entries} />
      </div>
      {loadingNext && (
        <p className="loading" aria-hidden="true">
          Loading…
        </p>
      )}
      {notRun ? (
        <div className="empty-state">
          <p className="empty-state__title">Nothing was searched for.</p>
          <p>{notRun}</p>
        </div>
      ) : badRequest ? (
        <div role="alert" className="error-state">
          <p className="error-state__title">The server could not run this search.</p>
          <p>
            {badRequest.field
              ? `See the message beside “${paramByName(deployment, badRequest.field)?.label ?? badRequest.field}”.`
              : badRequest.description}
          </p>
        </div>
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : page ? (
        page.records.length === 0 ? (
          <EmptyResults deployment={deployment} entries={entries} page={page} />
        ) : (
          <>
            {/* One per work, as the rows are: selecting a page does not cite a work twice. */}
            {selectPage(
              rows.map(({ record }) => record),
              page.generated,
            )}
            <ol className="results__list" aria-busy={loadingNext} aria-labelledby="results">
              {rows.map(({ record, versions }) => (
                <li key={record.repo_id}>
                  <ResultItem
                    deployment={deployment}
                    record={record}
                    terms={terms}
                    select={selectRecord(record, page.generated.has(record.repo_id))}
                    generated={page.generated.has(record.repo_id)}
                    versions={
                      versions.length > 0 && (
                        <Suspense fallback={null}>
                          <WorkVersions deployment={deployment} record={record} versions={versions} generated={page.generated} />
                        </Suspense>
                      )
                    }
                  />
                </li>
              ))}
            </ol>
            <Pagination deployment={deployment} entries={entries} paging={pagingOf(page)} />
          </>
        )
      ) : null}
    </section>
  );
}

function EmptyResults({ deployment, entries, page }: { deployment: Deployment; entries: Entries; page: RecordPage }) {
  const paging = pagingOf(page);
  // Past the last page the search itself matched something; say so rather than "nothing found".
  if (page.total !== undefined && page.total > 0) {
    return (
      <div className="empty-state">
        {!paging.pastLast && <p>There are no results on this page.</p>}
        <Pagination deployment={deployment} entries={entries} paging={paging} />
      </div>
    );
  }
  return (
    <div className="empty-state">
      <p className="empty-state__title">No records match this search.</p>
      <p>Try fewer or shorter words, a word ending in * for variants, or remove some advanced criteria.</p>
    </div>
  );
}
