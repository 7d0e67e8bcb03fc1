import { deployments } from '../../../deployments/registry';
import type { DeploymentKey } from '../../../deployments/schema';
import { searchModel } from '../../../deployments/search-model';
import { suggestQuery } from '../../suggest/suggest-query';
import { adoptCompletions, completeFacets, prepareCompletions } from '../../complete/completer';
import type { CountSharing } from '../facets/count-sharing';
import type { QueryEngine, Ranked, SharedFacets, SharedFacetValues, SharedPart, SharedRanks } from '../engine';
import { onSharedMemory } from '../facets/facet-index';
import type { PreviousFacets } from '../facets/column-update';
import { sharedCopy } from '../part-memory';
import { adoptFacetPages, prepareFacetPages } from '../facets/pages';
import { countFacets, type CountedRecords } from '../facets/count-facets';
import type { Criteria } from '../types';
import { rankByColumn } from './column-order';
import { deploymentStates, type DeploymentState } from './deployment-state';
import { Filters } from './filters';
import { ReadConnection } from './read-connection';
import { RecordReads } from './record-reads';
import { lengthNorms } from '../../engine/query/bm25';

/**
 * The query engine over one read-only connection (engine.ts says what it answers), made of
 * parts: the connection and its statements (read-connection.ts), what it keeps per
 * deployment (deployment-state.ts), criteria as id sets (filters.ts), date and title order
 * (column-order.ts), records by id (record-reads.ts) and facet counts (facets/).
 *
 * How a search runs (measured at 1M records: bench/notes.md):
 * - Text of every shape is matched, counted and ranked from the deployment's postings by
 *   the engine (engine/search.ts), with FTS5's bm25 to the bit. Ties break on repo_id
 *   through an in-memory rank of repo_ids, so no row is looked up to sort.
 * - The other criteria (dates, exact keys, repo_id, facet selections) are id sets combined
 *   in memory: the filter the engine searches within. Keys and selections are read from
 *   their indexes; dates from the date column held in memory (date-column.ts).
 * - Date and title order: the sort index is walked in order and rows outside the match
 *   set are skipped, stopping after the rows needed; a small match set is sorted instead.
 */

export interface EngineOptions {
  /**
   * Reads the file as it was when opened, for the connection's life (one read transaction),
   * so what it built from the data (ranks, lengths, facet values) always matches what it
   * reads, while a writer commits beside it. A served generation is so (store-worker.ts):
   * changes are served by the next one (reloading-store.ts). A file not in WAL mode (as a
   * bulk load leaves it) is read as it is until its first write in place switches it.
   */
  readonly snapshot?: boolean;
  /** Another thread that may count half of a broad search's facets (count-sharing.ts). */
  readonly sharing?: CountSharing;
  /**
   * The date columns come from another engine on the file (adopt, sharedDates), as a served
   * generation's reader hands them over: until then a date range is read from its index,
   * as reading a column whole here took a worker's first date search a scan of the column.
   */
  readonly datesHandedOver?: boolean;
}

export function openEngine(path: string, { snapshot = false, sharing, datesHandedOver = false }: EngineOptions = {}): QueryEngine {
  const connection = ReadConnection.open(path, snapshot);
  const stateOf = deploymentStates(connection, datesHandedOver);
  const filters = new Filters(connection);
  const reads = new RecordReads(connection);

  function rank(key: DeploymentKey, criteria: Criteria, need: number): Ranked {
    const state = stateOf(key);
    if (!state.postings()) return { total: 0, ids: new Int32Array(0), complete: true };
    const wanted = Math.max(1, need);
    const descending = criteria.order !== 'asc';
    // Every shape of text is matched, counted and ranked from the postings (engine/search.ts).
    const filter = filters.filterSet(state, criteria);
    const text = filters.textSearch(state, criteria, filter);
    if (text?.scored && criteria.sort === 'relevance') {
      const ranks = state.repoRank();
      const ids = text.rank(wanted, descending, state.idsInRepoOrder() ? undefined : ranks);
      const total = text.count();
      return { total, ids, complete: ids.length >= total };
    }
    // Nothing to rank by relevance (no words, or only negated ones): newest first.
    const sort = criteria.sort === 'relevance' ? searchModel(state.deployment).defaults.browseSort : criteria.sort;
    return rankByColumn(connection, state, { sort, descending, need: wanted }, text ? text.matches() : filter, criteria);
  }

  return {
    revision: connection.revision,
    rank: (key, criteria, need) => connection.reading(() => rank(key, criteria, need)),
    facets: (key, criteria, requests) =>
      countFacets(stateOf(key).deployment, countedRecords(stateOf(key), filters), criteria, requests, sharing),
    fetch: (key, ids) => reads.fetch(key, ids),
    get: (key, repoId) => reads.get(key, repoId),
    fulltext: (key, repoId) => reads.fulltext(key, repoId),
    suggest(key, q) {
      const state = stateOf(key);
      return state.postings() ? suggestQuery(q, state.vocabulary()) : undefined;
    },
    complete(key, { fields, prefix, limit }) {
      const state = stateOf(key);
      if (state.capacity <= 1) return [];
      const facets = state.deployment.facets.filter((facet) => facet.typeAhead && fields.includes(facet.name));
      return completeFacets(state.facetIndex(), facets, prefix, limit);
    },
    count: (key) => stateOf(key).total(),
    warm() {
      warmSearch(stateOf);
      // Facet values are read once per connection: seconds for a million records, which
      // must not be spent inside one request's time budget.
      for (const deployment of deployments) {
        const state = stateOf(deployment.key);
        if (state.capacity > 1) {
          prepareFacetPages(state.facetIndex());
          prepareCompletions(state.facetIndex(), deployment.facets);
        }
      }
    },
    warmSearch: (withRanks) => warmSearch(stateOf, withRanks),
    sharedFacets: (previous) => sharedFacets(stateOf, previous),
    sharedColumns: () => perDeployment(stateOf, (state) => state.columns()),
    facetsRead: () => facetsRead(stateOf),
    sharedRanks: () => sharedRanks(stateOf, connection.revision),
    sharedDates: () => perDeployment(stateOf, (state) => ({ revision: connection.revision, columns: state.dateColumnsData() })),
    sharedCompletions: (key) => perDeployment(stateOf, (state) => prepareCompletions(state.facetIndex(), state.deployment.facets), key),
    sharedWords: (key, previous) => perDeployment(stateOf, (state) => (state.postings() ? state.vocabularyData(previous) : undefined), key),
    adopt: (part) => adoptPart(stateOf, part),
    moveSnapshot: () => connection.moveSnapshot(),
    close: () => connection.close(),
  };
}

/** Takes what another engine on the file worked out (engine.ts adopt). */
function adoptPart(stateOf: (key: DeploymentKey) => DeploymentState, part: SharedPart): void {
  // What the generation's reader worked out is taken as it is: each worker doing it again took seconds.
  if ('facets' in part)
    for (const [key, { facetIndex, orders }] of part.facets) {
      stateOf(key).adoptFacetIndex(facetIndex);
      if (orders) adoptFacetPages(facetIndex, orders);
      else prepareFacetPages(facetIndex);
    }
  else if ('ranks' in part)
    for (const [key, { repoRank, inOrder, ...counted }] of part.ranks) stateOf(key).adoptRepoRank(repoRank, inOrder, counted);
  else if ('dates' in part) for (const [key, { revision, columns }] of part.dates) stateOf(key).adoptDateColumns(revision, columns);
  else if ('completions' in part)
    for (const [key, completions] of part.completions) adoptCompletions(stateOf(key).facetIndex(), completions);
  else if ('words' in part) for (const [key, words] of part.words) stateOf(key).adoptVocabulary(words);
}

/** What facet counting reads of a deployment, from its state and the filters. */
const countedRecords = (state: DeploymentState, filters: Filters): CountedRecords => ({
  index: () => state.facetIndex(),
  universe: () => state.universe(),
  total: () => state.total(),
  matching: (criteria) => filters.matchingSet(state, criteria),
  selected: (selector) => filters.selectorSet(state, selector),
  kept: (selection) => filters.selectionSet(state, selection),
});

/** Builds what searches need of every deployment (the repo_id ranks unless handed over, the postings), before the first. */
function warmSearch(stateOf: (key: DeploymentKey) => DeploymentState, withRanks = true): void {
  for (const deployment of deployments) {
    const state = stateOf(deployment.key);
    if (withRanks) state.repoRank();
    const postings = state.postings();
    // Computed on first use otherwise: the first search of every engine paid for it.
    if (postings) lengthNorms(postings);
  }
}

/**
 * Every deployment's facet values on shared memory, with their orders, worked out here once
 * for every worker. The type-ahead tables follow (sharedCompletions): facets need not wait for them.
 */
function sharedFacets(
  stateOf: (key: DeploymentKey) => DeploymentState,
  previous?: ReadonlyMap<DeploymentKey, PreviousFacets>,
): SharedFacets {
  return perDeployment(stateOf, (state) => {
    // Taken over from the generation before where it can be (facets/column-update.ts), its orders too.
    const facetIndex = state.readFacets(previous?.get(state.deployment.key));
    return { facetIndex: onSharedMemory(facetIndex), orders: prepareFacetPages(facetIndex) } satisfies SharedFacetValues;
  });
}

/** How the last sharedFacets() read each deployment's facet columns. */
function facetsRead(stateOf: (key: DeploymentKey) => DeploymentState): string | undefined {
  const read = perDeployment(stateOf, (state) => state.columnsRead());
  return read.size ? [...read].map(([key, how]) => `${key}: ${how}`).join('; ') : undefined;
}

/** Every deployment's ranks of repo_ids on shared memory, read once for every worker. */
function sharedRanks(stateOf: (key: DeploymentKey) => DeploymentState, revision: string): SharedRanks {
  return perDeployment(stateOf, (state) => {
    const repoRank = state.repoRank();
    return { repoRank: sharedCopy(repoRank), inOrder: state.idsInRepoOrder(), records: state.total(), revision };
  });
}

/** `make` of each deployment that holds records (or of `only`), by key. */
function perDeployment<T>(
  stateOf: (key: DeploymentKey) => DeploymentState,
  make: (state: DeploymentState) => T | undefined,
  only?: DeploymentKey,
): Map<DeploymentKey, T> {
  const made = new Map<DeploymentKey, T>();
  for (const deployment of deployments) {
    if (only !== undefined && deployment.key !== only) continue;
    const state = stateOf(deployment.key);
    if (state.capacity <= 1) continue;
    const value = make(state);
    if (value !== undefined) made.set(deployment.key, value);
  }
  return made;
}
