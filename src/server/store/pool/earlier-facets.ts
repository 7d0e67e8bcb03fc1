import type { DeploymentKey } from '../../../deployments/schema';
import type { PreviousFacets } from '../facets/column-update';
import { openKept, type KeptPlace } from './kept-parts';
import { sharedPart, unpackPart, type PackedPart } from './packed-strings';
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

/** The facet columns' state kept with the facet values of a revision, read when first asked for. */
export interface KeptColumns {
  take(): PackedPart | undefined;
  close(): void;
}

/**
 * The facet columns' state kept beside the facet values of `revision`, for a reader that
 * reads those values from the file and then writes the file anew (a server stopped before its
 * reader made the last part): kept again after them, the next generation's reader still takes
 * the facet index over (earlier-facets.ts) rather than reading every column, as it would after
 * a restart whose reader had not ended. Opened now and read when asked for, as earlierWords.
 */
export function keptColumns(place: KeptPlace, revision: string): KeptColumns {
  const opened = openKept(place);
  if (opened?.header.revision !== revision) {
    opened?.close();
    return { take: () => undefined, close: () => undefined };
  }
  return {
    take() {
      try {
        const chunk = opened.chunk(true, partKinds.columns);
        return chunk && sharedPart(decodePart(chunk));
      } catch {
        return undefined;
      } finally {
        opened.close();
      }
    },
    close: opened.close,
  };
}
