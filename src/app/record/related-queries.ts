import { useQueries } from '@tanstack/react-query';
import { fetchRecordPage } from '../../client/records';
import { searchUrl } from '../../client/urls';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import type { ApiAuth } from '../../client/auth';
import { recordKeys } from './record-keys';

/** Most related record ids looked up per record page: each is one request per catalog. */
export const relatedLookupLimit = 40;

export interface CatalogAccess {
  readonly deployment: Deployment;
  readonly baseUrl: string;
  readonly auth: ApiAuth | undefined;
}

export interface FoundRecord {
  readonly deployment: Deployment;
  readonly record: ApiRecord;
  /** The catalog says it is a generated demo record (X-Generated-Records). */
  readonly generated: boolean;
}

/**
 * Which of some upstream record ids this mirror holds, and in which catalog: each id is
 * asked of each catalog given (`repo_id`, one row), so a missing one is an empty page, not
 * an error. Ids past the limit are not looked up.
 */
export function useRecordsInMirror(ids: readonly string[], catalogs: readonly CatalogAccess[]): { found: FoundRecord[]; pending: boolean } {
  const asked = ids.slice(0, relatedLookupLimit);
  const results = useQueries({
    queries: asked.flatMap((id) =>
      catalogs.map(({ deployment, baseUrl, auth }) => ({
        queryKey: recordKeys.inMirror(deployment.key, baseUrl, id),
        queryFn: async ({ signal }: { signal: AbortSignal }) => {
          const page = await fetchRecordPage(
            searchUrl(baseUrl, [
              ['repo_id', id],
              ['rows', '1'],
            ]),
            { deployment, signal, auth },
          );
          const record = page.records[0];
          return record ? { deployment, record, generated: page.generated.has(record.repo_id) } : null;
        },
      })),
    ),
  });
  return {
    found: results.flatMap((result) => (result.data ? [result.data] : [])),
    pending: results.some((result) => result.isPending),
  };
}
