import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { displayName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { queryString } from '../../client/urls';
import { recordPath } from '../navigation/record-path';
import { droppedNotice } from '../navigation/switch-deployment';
import type { NavigationState } from '../navigation/navigation-state';
import { ErrorState } from '../ui/ErrorState';
import { authorNames, firstText, formatCount, formatDate } from '../ui/format';
import { RichText } from '../ui/RichText';
import { GeneratedBadge } from '../ui/GeneratedNotice';
import { workRows } from '../ui/works';
import { CatalogTimeoutError, useCatalogSearch, type CatalogSearch } from './catalog-search';

// A work's other versions load with the first page that has any (most pages have none).
const WorkVersions = lazy(() => import('../ui/WorkVersions').then((module) => ({ default: module.WorkVersions })));

export const catalogAnchor = (deployment: Deployment) => `catalog-${deployment.slug}`;

/**
 * One catalog's part of an all-catalogs search: its count, its best results, and the way on.
 * `refusalSaid`: its refusal is the one the page says once beside the search box.
 */
export function CatalogGroup({ search, refusalSaid = false }: { search: CatalogSearch; refusalSaid?: boolean }) {
  const query = useCatalogSearch(search);
  const { deployment, entries, dropped } = search;
  const name = displayName(deployment);
  const headingId = `${catalogAnchor(deployment)}-heading`;
  const state: NavigationState = { notice: droppedNotice(dropped, deployment) };
  const page = query.data;
  const total = page ? (page.total ?? page.records.length) : undefined;

  return (
    <section className="catalog-group" id={catalogAnchor(deployment)} aria-labelledby={headingId} aria-busy={query.isFetching}>
      <div className="catalog-group__header">
        <h2 id={headingId}>{name}</h2>
        <p className="catalog-group__count">
          {total !== undefined ? formatCount(total) : query.isPending && query.isFetching ? 'Searching…' : ''}
        </p>
      </div>
      {dropped.length > 0 && (
        <p className="catalog-group__dropped">Not applied here (this catalog has no such criterion): {dropped.join(', ')}.</p>
      )}
      {search.mapped && <p className="catalog-group__dropped">Searched here by its own field: {search.mapped.join(', ')}.</p>}
      {search.problem ? (
        <p className="catalog-group__empty">Not searched: {search.problem}</p>
      ) : query.isError ? (
        refusalSaid ? (
          <p className="catalog-group__empty">Refused this search, for the reason given beside the search box.</p>
        ) : query.error instanceof CatalogTimeoutError ? (
          <div className="error-state" role="alert">
            <p className="error-state__title">{name} did not answer in time.</p>
            <p>{query.error.message} The other catalogs are shown without it.</p>
            <button type="button" className="button" onClick={() => void query.refetch()}>
              Try again
            </button>
          </div>
        ) : (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        )
      ) : page && page.records.length > 0 ? (
        <ol className="catalog-group__list">
          {workRows(page).map(({ record, versions }) => {
            const { names, more } = authorNames(record.authors, 3);
            const published = firstText(record.publication_date);
            const date = published ? formatDate(published) : undefined;
            const type = firstText(record.product_type);
            return (
              <li key={record.repo_id} className="catalog-result">
                <p className="catalog-result__title">
                  <Link to={recordPath(deployment, record.repo_id)}>
                    <RichText text={firstText(record.title) ?? 'Untitled record'} inline />
                  </Link>
                </p>
                <p className="catalog-result__meta">
                  <span className="catalog-result__catalog">{name}</span>
                  {names.length > 0 && (
                    <span>
                      {names.join('; ')}
                      {more > 0 && ` and ${more} more`}
                    </span>
                  )}
                  {date && <time dateTime={date.iso}>{date.text}</time>}
                  {type && (
                    <span>
                      <RichText text={type} inline />
                    </span>
                  )}
                  {page.generated.has(record.repo_id) && <GeneratedBadge />}
                </p>
                {versions.length > 0 && (
                  <Suspense fallback={null}>
                    <WorkVersions deployment={deployment} record={record} versions={versions} generated={page.generated} />
                  </Suspense>
                )}
              </li>
            );
          })}
        </ol>
      ) : page ? (
        <p className="catalog-group__empty">No records in this catalog match.</p>
      ) : null}
      {page && total !== undefined && total > 0 && (
        <p className="catalog-group__more">
          <Link to={`/${deployment.slug}${queryString(entries)}`} state={state}>
            {total > page.records.length ? `All ${formatCount(total)} in ${name}` : `Continue in ${name}`}
          </Link>
        </p>
      )}
    </section>
  );
}
