import { join } from 'node:path';
import { expect } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { parseListRequest } from '../../http/criteria';
import { parseQueryString } from '../../http/query-string';
import { openStore, openStoreWriter } from '../sqlite/sqlite';
import type { RecordStore, StoredRecord } from '../types';

/**
 * Expects every LIT facet of `store`, for each search, to equal a store's written at once with
 * `records` (the last of each repo_id), made in a new file in `dir`: what a served store that
 * followed its writes must show.
 */
export async function expectFacetsAsWrittenAtOnce(
  store: Pick<RecordStore, 'facets'>,
  records: Iterable<StoredRecord>,
  dir: string,
  searches: readonly string[],
): Promise<void> {
  const lit = deploymentByKey('LIT')!;
  const last = new Map([...records].map((stored) => [stored.record.repo_id, stored]));
  const file = join(dir, 'fresh.db');
  const writer = openStoreWriter(file);
  writer.put('LIT', [...last.values()]);
  writer.close();
  const fresh = openStore(file);
  try {
    const everyFacet = lit.facets.map(({ name }) => ({ name, limit: 100_000, offset: 0, sort: 'count' as const }));
    for (const search of searches) {
      const { criteria } = parseListRequest(lit, parseQueryString(search));
      expect(await store.facets('LIT', criteria, everyFacet), search).toEqual(await fresh.facets('LIT', criteria, everyFacet));
    }
  } finally {
    await fresh.close();
  }
}
