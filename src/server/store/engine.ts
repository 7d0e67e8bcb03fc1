import type { DeploymentKey } from '../../deployments/schema';
import type { Suggestion } from '../../formats/suggest-response';
import type { CompletedValue, CompleteRequest } from '../complete/complete-request';
import type { MarkedDocs } from '../render/rendered-body';
import type { FacetIndex } from './facets/facet-index';
import type { FacetColumns } from './facets/column-reader';
import type { PreviousFacets } from './facets/column-update';
import type { FacetOrder } from './facets/pages';
import type { FacetCompletions } from '../complete/completer';
import type { VocabularyData } from '../suggest/vocabulary';
import type { DateColumnData } from './sqlite/date-column';
import type { SnapshotMove } from './sqlite/snapshot-move';
import type { Criteria, FacetRequest, FacetsResult, FoundRecord } from './types';

/**
 * What the query engine answers (the SQLite reader, sqlite/query-engine.ts): it orders the
 * records that match a search and counts them, exactly, and fetches records by id. Paging
 * and caching live above it (cached-store.ts), so one ordering serves every page of a search.
 */

/** The first `ids.length` records of a search's order, and how many match in all. */
export interface Ranked {
  readonly total: number;
  readonly ids: Int32Array;
  /** The ids are the whole order, not a prefix of it. */
  readonly complete: boolean;
}

export interface QueryEngine {
  readonly revision: string;
  /** Orders the records matching `criteria` (paging ignored) far enough to cover `need` rows. */
  rank(key: DeploymentKey, criteria: Criteria, need: number): Ranked;
  /** Exact counts by value of the records matching `criteria`, per facet asked for. */
  facets(key: DeploymentKey, criteria: Criteria, requests: readonly FacetRequest[]): FacetsResult;
  /**
   * Records by id as their stored JSON text, in the order given (missing ids are skipped),
   * and which of them are generated demo records, from the same rows.
   */
  fetch(key: DeploymentKey, ids: ArrayLike<number>): MarkedDocs;
  /** A record by its repo_id, and whether it is generated, from its row. */
  get(key: DeploymentKey, repoId: string): FoundRecord | undefined;
  fulltext(key: DeploymentKey, repoId: string): string | undefined;
  count(key: DeploymentKey): number;
  /** "Did you mean" for a search's words, from the deployment's vocabulary (built on first use). */
  suggest(key: DeploymentKey, q: string): Suggestion | undefined;
  /** Type-ahead: values of the facets asked for that start with a prefix, with their counts (complete/completer.ts). */
  complete(key: DeploymentKey, request: CompleteRequest): CompletedValue[];
  /** Builds what the first search of each deployment would otherwise build (the repo_id ranks, the facet values). */
  warm(): void;
  /** warm() without the facet values: what searches need, so they can be answered before the facets are read; without the ranks of repo_ids where another engine hands them over (sharedRanks). */
  warmSearch(withRanks?: boolean): void;
  /** Each deployment's ranks of repo_ids (ties in relevance break on them), on shared memory, for every worker. */
  sharedRanks(): SharedRanks;
  /** Each deployment's date columns (sqlite/date-column.ts), read once for every worker. */
  sharedDates(): SharedDates;
  /** The facet values warm() read, in memory every thread can share (one copy per generation, not per worker). */
  sharedFacets(previous?: ReadonlyMap<DeploymentKey, PreviousFacets>): SharedFacets;
  /**
   * What sharedFacets() read of each deployment's facet columns, for the next generation's
   * reader to take its index over (facets/column-update.ts), and how much of them it read.
   */
  sharedColumns(): SharedColumns;
  /** How the last sharedFacets() read the facet columns, for the log: records read again, of all, per deployment. */
  facetsRead(): string | undefined;
  /** A deployment's type-ahead tables of the facet values sharedFacets() handed over, worked out after them so facets need not wait. */
  sharedCompletions(key: DeploymentKey): SharedCompletions;
  /** A deployment's "Did you mean" vocabulary, built once per generation for every worker (from an earlier revision's, `previous`, where given). */
  sharedWords(key: DeploymentKey, previous?: VocabularyData): SharedWords;
  /** Takes what another engine on the same file worked out (sharedFacets, sharedCompletions, sharedWords), instead of doing it on first use. */
  adopt(part: SharedPart): void;
  /** Moves a pinned snapshot off the write-ahead log, reading the same data (snapshot-move.ts). */
  moveSnapshot(): SnapshotMove;
  close(): void;
}

/**
 * Per deployment, its facet index, its arrays on shared memory, with what a worker would
 * otherwise work out from it again (the values' A–Z orders, the type-ahead tables).
 */
export type SharedFacets = ReadonlyMap<DeploymentKey, SharedFacetValues>;

export interface SharedFacetValues {
  readonly facetIndex: FacetIndex;
  readonly orders?: ReadonlyMap<string, FacetOrder>;
}

/** Per deployment, its facet columns as the reader read them (facets/column-reader.ts), kept for the next generation's reader only. */
export type SharedColumns = ReadonlyMap<DeploymentKey, FacetColumns>;

/** Per deployment, the type-ahead tables of its facet index, by facet. */
export type SharedCompletions = ReadonlyMap<DeploymentKey, ReadonlyMap<string, FacetCompletions>>;

/** Per deployment, its vocabulary for suggestions as plain arrays (suggest/vocabulary.ts). */
export type SharedWords = ReadonlyMap<DeploymentKey, VocabularyData>;

/** Per deployment, repoRank[id]: the place of the record's repo_id in repo_id order, whether ids ascend in it, and how many records at which revision were ranked. */
export type SharedRanks = ReadonlyMap<
  DeploymentKey,
  { readonly repoRank: Int32Array; readonly inOrder: boolean; readonly records: number; readonly revision: string }
>;

/** Per deployment, its date-bounded columns in memory, by column, and the revision they were read at (a worker of another takes none). */
export type SharedDates = ReadonlyMap<DeploymentKey, { readonly revision: string; readonly columns: ReadonlyMap<string, DateColumnData> }>;

/** One part of what a generation's reader works out once and hands to every worker, in this order. */
export type SharedPart =
  | { readonly facets: SharedFacets }
  | { readonly ranks: SharedRanks }
  | { readonly dates: SharedDates }
  | { readonly completions: SharedCompletions }
  | { readonly words: SharedWords }
  | { readonly columns: SharedColumns };
