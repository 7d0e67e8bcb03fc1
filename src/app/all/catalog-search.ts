import { useQuery, useQueryClient, type QueryState } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import type { ApiAuth } from '../../client/auth';
import { isTimeout } from '../../client/errors';
import { fetchWorksPage, groupByWork, type RecordPage } from '../../client/records';
import { searchUrl } from '../../client/urls';
import { deployments } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import type { AppConfig } from '../../client/config';
import { criteriaForCatalog } from './catalog-criteria';
import { catalogKeys } from './catalog-keys';

/** Best results shown per catalog; "All … in" a catalog shows the rest. */
export const resultsPerCatalog = 5;

/** How long one catalog may take before it is given up, so a slow server never holds the page. */
export const catalogTimeoutMs = 15_000;

/** A catalog that did not answer in time: an error of its own, so the page can say which and how long. */
export class CatalogTimeoutError extends Error {
  override readonly name = 'CatalogTimeoutError';
  constructor(readonly seconds: number) {
    super(`No answer within ${seconds} seconds.`);
  }
}

/** Fetches with the query's signal and a timeout of its own; the timeout reads as CatalogTimeoutError, not as an abort. */
export async function fetchWithTimeout(
  url: string,
  deployment: Deployment,
  signal: AbortSignal,
  auth: ApiAuth | undefined,
  timeoutMs = catalogTimeoutMs,
): Promise<RecordPage> {
  try {
    return await fetchWorksPage(url, { deployment, auth, signal, timeoutMs });
  } catch (error) {
    if (isTimeout(error) && !signal.aborted) throw new CatalogTimeoutError(Math.round(timeoutMs / 1000));
    throw error;
  }
}

export interface CatalogSearch {
  readonly deployment: Deployment;
  readonly entries: [string, string][];
  /** Labels of the criteria this catalog does not support, left out of its search. */
  readonly dropped: string[];
  /** Box fields this catalog searches as another of its own (`doi: as Identifier`). */
  readonly mapped?: readonly string[];
  /** Why this catalog is not searched (its fields cannot take the box as typed). */
  readonly problem?: string;
  readonly url: string;
  readonly auth: ApiAuth | undefined;
}

/** Every catalog's search for one all-catalogs search, each through its configured server and token. */
export function catalogSearches(config: AppConfig, entries: readonly (readonly [string, string])[]): CatalogSearch[] {
  return deployments.map((deployment) => {
    const { entries: criteria, dropped, mapped, problem } = criteriaForCatalog(deployment, entries, config.facets.has(deployment.key));
    // Each work once, with its versions, where the catalog's server groups (client/records.ts fetchWorksPage).
    const url = searchUrl(config.baseUrls[deployment.key], [...criteria, ['rows', String(resultsPerCatalog)], groupByWork]);
    return {
      deployment,
      entries: criteria,
      dropped,
      ...(mapped && { mapped }),
      ...(problem ? { problem } : {}),
      url,
      auth: config.auth[deployment.key],
    };
  });
}

const queryKey = (search: CatalogSearch) => catalogKeys.search(search.deployment.key, search.url);

/** One catalog's search: a query of its own, so a catalog that fails or is slow leaves the others alone. */
export function useCatalogSearch(search: CatalogSearch) {
  return useQuery({
    queryKey: queryKey(search),
    queryFn: ({ signal }) => fetchWithTimeout(search.url, search.deployment, signal, search.auth),
    enabled: !search.problem,
    // A catalog that fails is shown as failed at once: the others are on the page.
    retry: false,
  });
}

export type CatalogState = Pick<QueryState<RecordPage>, 'status' | 'data' | 'error'> | undefined;

/** Where each catalog's search stands, read from the query cache for the page's summary and overview. */
export function useCatalogStates(searches: readonly CatalogSearch[]): CatalogState[] {
  const cache = useQueryClient().getQueryCache();
  const subscribe = useCallback((listener: () => void) => cache.subscribe(listener), [cache]);
  const states = () => searches.map((search) => cache.find<RecordPage>({ queryKey: queryKey(search), exact: true })?.state);
  // The snapshot must be a stable value: a string that changes whenever a search's state does
  // re-renders the page, which then reads the states themselves.
  useSyncExternalStore(subscribe, () =>
    states()
      .map((state) => `${state?.status}:${state?.dataUpdatedAt}:${state?.errorUpdatedAt}`)
      .join('|'),
  );
  return states();
}
