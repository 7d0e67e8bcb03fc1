import type { Deployment } from '../../../deployments/schema';
import type { IdSet } from '../../engine/id-set';
import type { CountSharing } from './count-sharing';
import { collectFacetCounts } from './collector';
import type { FacetIndex } from './facet-index';
import { pageOfCounts } from './pages';
import { selectionOf } from './facet-values';
import type { Criteria, FacetRequest, FacetSelection, FacetsResult, Selector } from '../types';

/** The record sets a facets request is counted over, as the store reads them. */
export interface CountedRecords {
  /** The facet values, read on first use. */
  index(): FacetIndex;
  universe(): IdSet;
  total(): number;
  /** Every record matching the criteria; undefined when nothing narrows (every record). */
  matching(criteria: Criteria): IdSet | undefined;
  /** The records one facet value selects. */
  selected(selector: Selector): IdSet;
  /** The records a facet's selection keeps. */
  kept(selection: FacetSelection): IdSet;
}

/**
 * Exact counts by value of the records matching `criteria`, per facet asked for: one pass
 * over the search's records counts every facet, each without its own selection
 * (collector.ts); a search of every record without selections is the index's totals.
 */
export function countFacets(
  deployment: Deployment,
  records: CountedRecords,
  criteria: Criteria,
  requests: readonly FacetRequest[],
  sharing: CountSharing | undefined,
): FacetsResult {
  const { selections = [], ...search } = criteria;
  const asked = requests.map((request) => {
    const facet = deployment.facets.find((candidate) => candidate.name === request.name)!;
    const selection = selectionOf(criteria, facet.name);
    const chosen = [...(selection?.anyOf ?? []), ...(selection?.noneOf ?? [])];
    return {
      name: facet.name,
      index: records.index(),
      checks: chosen.map(({ selector }) => records.selected(selector)),
      request,
      selection,
    };
  });
  const matching = records.matching(search);
  const collected =
    matching || selections.length > 0 || asked.some(({ checks }) => checks.length > 0)
      ? collectFacetCounts(
          matching ?? records.universe(),
          selections.map((selection) => ({ facet: selection.facet, members: records.kept(selection) })),
          asked,
          sharing,
        )
      : { total: records.total(), counts: asked.map(({ index }) => index.totals), checked: asked.map(() => []) };
  return {
    total: collected.total,
    facets: asked.map(({ name, index, request, selection }, f) => {
      const { distinct, values } = pageOfCounts(index, collected.counts[f]!, name, request);
      const checked = collected.checked[f]!;
      const anyOf = selection?.anyOf ?? [];
      const countsOf = (chosen: readonly { value: string }[], from: number) =>
        chosen.map(({ value }, i) => ({ value, count: checked[from + i]! }));
      return { name, distinct, values, selected: countsOf(anyOf, 0), excluded: countsOf(selection?.noneOf ?? [], anyOf.length) };
    }),
  };
}
