import type { DeploymentKey } from '../../../deployments/schema';
import type { PreviousFacets } from '../facets/column-update';
import { openKept, type KeptPlace } from './kept-parts';
import { unpackPart } from './packed-strings';
import { decodePart, partKinds } from './part-chunks';

/**
 * The facet index kept for an earlier revision of the same file (written in place since) with
 * its columns' state, by deployment, for the reader to take it over (facets/column-update.ts)
 * instead of reading every column; none where either part is missing.
 */
export function earlierFacets(place: KeptPlace, file: string): Map<DeploymentKey, PreviousFacets> | undefined {
  const opened = openKept(place);
  try {
    if (opened?.header.file !== file) return undefined;
    const facets = opened.chunk(true, partKinds.facets);
    const columns = facets && opened.chunk(true, partKinds.columns);
    if (!columns) return undefined;
    const index = unpackPart(decodePart(facets));
    const state = unpackPart(decodePart(columns));
    if (!('facets' in index) || !('columns' in state)) return undefined;
    const previous = new Map<DeploymentKey, PreviousFacets>();
    for (const [key, { facetIndex, orders }] of index.facets) {
      const kept = state.columns.get(key);
      if (kept) previous.set(key, { index: facetIndex, columns: kept, ...(orders ? { orders } : {}) });
    }
    return previous;
  } catch {
    return undefined;
  } finally {
    opened?.close();
  }
}
