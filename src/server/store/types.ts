import type { PageRendering } from '../render/page-body';
import type { RenderedBody } from '../render/rendered-body';
import type { ApiRecord } from '../../deployments/registry';
import type { DeploymentKey, SearchColumn } from '../../deployments/schema';
import type { KeyName } from '../../deployments/key-names';
import type { OrderedField } from '../../deployments/search-model';
import type { KeyedRecord } from '../../formats/keys';
import type { QueryNode } from '../query/ast';
import type { Suggestion } from '../../formats/suggest-response';
import type { CompletedValue, CompleteRequest } from '../complete/complete-request';
import type { SnapshotMove } from './sqlite/snapshot-move';

/**
 * The store behind the API. SQLite FTS5 implements it today; another engine can
 * implement the same interface. Reads are async so an implementation may run queries
 * off the event loop.
 */

/** A record with the store-only data that travels with it. */
export interface StoredRecord extends KeyedRecord {
  readonly record: ApiRecord;
  /** Full text, searched by `q` and `fulltext`; never part of the record itself. */
  readonly fulltext?: string;
  /** Submitter code where the deployment has no field for it (see KeyName `site`). */
  readonly site?: string;
  /** Made by the demo corpus generator: its identifiers resolve to nothing real. Never part of the record. */
  readonly generated?: boolean;
}

/** Relevance, or a sortable field of the deployment's search model. */
// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- the field names are strings; 'relevance' is named for the reader.
export type SortField = 'relevance' | OrderedField['field'];
export type SortOrder = 'asc' | 'desc';

/** What one set of parameters selects. All parts combine with AND. */
export interface Selector {
  readonly text: readonly { readonly columns: readonly SearchColumn[]; readonly query: QueryNode }[];
  /** Values already normalised with `normalizeKeyValue`. */
  readonly exact: readonly { readonly key: KeyName; readonly value: string }[];
  /** Bounds on date fields of the search model, as ISO timestamps: `from` inclusive, `to` exclusive. */
  readonly dates: readonly { readonly field: OrderedField['field']; readonly from?: string; readonly to?: string }[];
}

/** One facet value of a selection and what it selects. */
export interface SelectedValue {
  readonly value: string;
  readonly selector: Selector;
}

/**
 * One facet's `facet.NAME` and `exclude.NAME` values (docs/extensions.md): records that
 * match any of `anyOf` (none given: every record) and none of `noneOf`.
 */
export interface FacetSelection {
  readonly facet: string;
  readonly anyOf: readonly SelectedValue[];
  readonly noneOf: readonly SelectedValue[];
}

/** Validated, normalised search criteria. All parts combine with AND. */
export interface Criteria extends Selector {
  /** Records with any of these identifiers (one for the spec's `repo_id`; the upstream profile's `A OR B` lists more). */
  readonly repoIds?: readonly string[];
  /** Facet selections, each combined with AND with the rest and with each other. */
  readonly selections?: readonly FacetSelection[];
  readonly sort: SortField;
  readonly order: SortOrder;
  readonly offset: number;
  readonly limit: number;
}

export interface SearchResult {
  /** Exact number of matching records. */
  readonly total: number;
  readonly records: readonly ApiRecord[];
  /**
   * The same records as JSON text (each `JSON.stringify` of the record), when the store
   * holds them that way: a JSON response is then written without parsing them.
   */
  readonly json?: readonly string[];
  /** The page's records that are generated demo records (their repo_ids), in the page's order, read with them. */
  readonly generated: readonly string[];
}

/** A record read by its repo_id, with whether it is generated demo data (a store-only fact, never part of the record). */
export interface FoundRecord {
  readonly record: ApiRecord;
  readonly generated: boolean;
}

/** A page of a search written as a response body (render/rendered-body.ts), where the search ran. */
export interface RenderedPage extends Omit<RenderedBody, 'body'> {
  /** Exact number of matching records. */
  readonly total: number;
  /** One buffer, or chunks of one. */
  readonly body: Buffer | readonly Buffer[];
}

/** One facet's page of values asked for (`GET {base}/facets`). */
export interface FacetRequest {
  readonly name: string;
  readonly limit: number;
  readonly offset: number;
  readonly sort: 'count' | 'value';
  /** Only values whose folded text contains this folded text (`facet_contains`). */
  readonly contains?: string;
}

export interface FacetValueCount {
  readonly value: string;
  readonly count: number;
  /** Every spelling the value stands for and selects (its own first), where it has more than one. */
  readonly variants?: readonly string[];
}

export interface FacetsResult {
  /** Records matching the criteria. */
  readonly total: number;
  readonly facets: readonly FacetCountsResult[];
}

export interface FacetCountsResult {
  readonly name: string;
  readonly distinct: number;
  readonly values: readonly FacetValueCount[];
  /** Counts of the facet's own `facet.NAME` and `exclude.NAME` values, over the search without them. */
  readonly selected: readonly FacetValueCount[];
  readonly excluded: readonly FacetValueCount[];
}

export interface RecordStore {
  search(deployment: DeploymentKey, criteria: Criteria): Promise<SearchResult>;
  /**
   * A page of the search as a response body, rendered where the search runs (a worker of the
   * pooled store): large pages are then never rendered on the main thread. A store without
   * it is rendered by the HTTP layer (page-body.ts) from `search`.
   */
  page?(deployment: DeploymentKey, criteria: Criteria, rendering: PageRendering): Promise<RenderedPage>;
  /** Exact counts by value of the records matching `criteria` (paging ignored), per facet asked for. */
  facets(deployment: DeploymentKey, criteria: Criteria, requests: readonly FacetRequest[]): Promise<FacetsResult>;
  get(deployment: DeploymentKey, repoId: string): Promise<FoundRecord | undefined>;
  fulltext(deployment: DeploymentKey, repoId: string): Promise<string | undefined>;
  count(deployment: DeploymentKey): Promise<number>;
  /** "Did you mean": the search's words as the records spell them (suggest/suggest-query.ts); absent on a store without it. */
  suggest?(deployment: DeploymentKey, q: string): Promise<Suggestion | undefined>;
  /** Type-ahead: values of facets that start with a prefix, with their counts (complete/completer.ts); absent on a store without it. */
  complete?(deployment: DeploymentKey, request: CompleteRequest): Promise<CompletedValue[]>;
  /** Changes whenever the data changes; part of every ETag. */
  readonly revision: string;
  /**
   * Resolves once facets are answered without first reading the facet values (seconds at a
   * million records); searches are answered before that. Absent: facets are ready when the store is.
   */
  readonly facetsWarm?: Promise<void>;
  /**
   * Moves the readers' pinned snapshots off the file's write-ahead log, each reading the same
   * data, so the log can be emptied (sqlite/snapshot-move.ts). Absent: no reader pins one.
   */
  moveSnapshots?(): Promise<SnapshotMove>;
  close(): Promise<void>;
}

export interface StoreWriter {
  /**
   * Inserts or replaces (by repo_id) records; all or nothing per call. Outside a bulk load
   * each call is one durable transaction that also updates the search postings, so other
   * connections see it whole once it returns.
   */
  put(deployment: DeploymentKey, records: Iterable<StoredRecord>): number;
  count(deployment: DeploymentKey): number;
  /**
   * Reads now what a first write would otherwise read before writing anything (each facet's
   * dictionary, which grows with the store): for a writer opened ahead of its writes.
   */
  warm(): void;
  /** Closes; a bulk load first builds the postings of every deployment it wrote (see postings.ts). */
  close(): void;
}

/**
 * One run of writes to either store, as `import`, `generate` and `harvest` make them. Each
 * put() is all or nothing; what a run keeps when it fails depends on how it was opened
 * (store/open-writer.ts): a new SQLite file written whole appears only on close().
 */
export interface RecordWriter {
  /** Where, for messages: a file path, or the primary's URL without its credentials. */
  readonly name: string;
  /** Inserts or replaces (by repo_id) records in one durable transaction. */
  put(deployment: DeploymentKey, records: Iterable<StoredRecord>): Promise<number>;
  count(deployment: DeploymentKey): Promise<number>;
  /**
   * The records that are new or differ from their stored version, in their order. The store
   * keeps each record as `JSON.stringify(record)`, which is what the importer's mapping of an
   * unchanged record gives again, so a harvest need not write its boundary day again.
   */
  changed(deployment: DeploymentKey, records: readonly StoredRecord[]): Promise<StoredRecord[]>;
  /** Where each harvest source stands, kept in the same store. */
  readonly harvests: HarvestLedger;
  /** Ends the run, keeping what it wrote. */
  close(): Promise<void>;
  /** Ends a failed run: what close() would still have made visible is dropped. */
  discard(): Promise<void>;
}

/**
 * Where each harvest source stands, kept in the store it fills (one row per deployment and
 * base URL), so the store and its resume point travel together. The row is written after
 * each batch commits: a run killed in between leaves it one batch behind, which only makes
 * the next run fetch that batch again (puts replace by repo_id), never skip one.
 */
export interface HarvestLedger {
  state(deployment: DeploymentKey, baseUrl: string): Promise<HarvestState | undefined>;
  /** Moves the resume point forward (never back) after a batch of `written` records. */
  advance(deployment: DeploymentKey, baseUrl: string, newestEntry: string, written: number): Promise<void>;
  complete(deployment: DeploymentKey, baseUrl: string, at: string): Promise<void>;
}

export interface HarvestState {
  /** The newest `entry_date` stored from this source. */
  readonly newestEntry: string;
  /** Records written from this source over all runs, replacements included. */
  readonly harvested: number;
  /** When a run last reached the source's last page (ISO), if one ever did. */
  readonly completedAt?: string;
}

/**
 * The store cannot take this request now: a search ran past the time budget, or too many
 * are waiting. Answered 503 with Retry-After; the request may succeed later or narrowed.
 */
export class StoreOverloaded extends Error {
  override readonly name = 'StoreOverloaded';
  readonly retryAfterSeconds = 5;
}
