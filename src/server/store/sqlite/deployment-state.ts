import { deploymentByKey } from '../../../deployments/registry';
import type { KeyName } from '../../../deployments/key-names';
import type { Deployment, DeploymentKey } from '../../../deployments/schema';
import { searchModel } from '../../../deployments/search-model';
import { IdSet } from '../../engine/id-set';
import type { PostingsReader } from '../../engine/postings/index-reader';
import type { Vocabulary } from '../../suggest/suggest-query';
import { buildVocabulary, recordsHoldingIn, vocabularyData, vocabularyOf, type VocabularyData } from '../../suggest/vocabulary';
import type { FacetIndex } from '../facets/facet-index';
import { loadFacetIndex, type FacetColumns } from '../facets/column-reader';
import { updateFacetColumns, type PreviousFacets } from '../facets/column-update';
import { adoptFacetPages } from '../facets/pages';
import { joinedGroups, storedJoins } from '../facets/name-joins';
import { DateColumn, type DateColumnData } from './date-column';
import { openPostings } from './postings-reader';
import type { ReadConnection } from './read-connection';
import { tablesOf } from './schema';

/**
 * What the engine reads of one deployment once and keeps for the life of its (read-only)
 * connection: each part built on first use.
 */
export class DeploymentState {
  /** One more than the largest record id: the size of every id set. */
  readonly capacity: number;
  private repoRanks?: Int32Array;
  private inRepoOrder = false;
  private all?: IdSet;
  private records?: number;
  /** null while it holds no records (a write builds them with its first). */
  private postingsRead?: PostingsReader | null;
  private facetsRead?: FacetIndex;
  /** The facet columns as readFacets read them, and how. */
  private columnsState?: FacetColumns;
  private columnsHow?: string;
  /** Per person-folded key, each name of a joined group and the group's names. */
  private readonly nameGroups = new Map<KeyName, ReadonlyMap<string, readonly string[]>>();
  private words?: Vocabulary;
  /** Date columns read so far, by column; null where one cannot be held in memory (DateColumn.read). */
  private readonly dateColumns = new Map<string, DateColumn | null>();

  constructor(
    private readonly connection: ReadConnection,
    readonly deployment: Deployment,
    /** The date columns come from another engine on the file (adoptDateColumns): until they do, ranges are read from their indexes. */
    private readonly datesHandedOver = false,
  ) {
    const maxId = connection.prepare(`SELECT max(id) FROM ${this.tables.records}`).pluck().get() as number | null;
    this.capacity = (maxId ?? 0) + 1;
  }

  get tables() {
    return tablesOf(this.deployment);
  }

  /** repoRank()[id] is the position of the record's repo_id in repo_id order. */
  repoRank(): Int32Array {
    if (!this.repoRanks) {
      const rank = new Int32Array(this.capacity);
      const ids = this.connection.prepare(`SELECT id FROM ${this.tables.records} ORDER BY repo_id`).pluck().all() as number[];
      let ascending = true;
      for (let i = 0; i < ids.length; i++) {
        rank[ids[i]!] = i;
        if (i > 0 && ids[i]! < ids[i - 1]!) ascending = false;
      }
      this.repoRanks = rank;
      this.inRepoOrder = ascending;
      this.records ??= ids.length;
    }
    return this.repoRanks;
  }

  /**
   * Takes the ranks another engine on the file read (sharedRanks), and the number of records
   * they rank, unless read before records this one holds were written.
   */
  adoptRepoRank(rank: Int32Array, inOrder: boolean, counted: { records: number; revision: string }): void {
    if (rank.length < this.capacity) return;
    this.repoRanks = rank;
    this.inRepoOrder = inOrder;
    // Counting them again took a worker a quarter of a second at a million records, as a server started.
    if (counted.revision === this.connection.revision) this.records ??= counted.records;
  }

  /** Whether ids ascend in repo_id order (true of generated corpora): rowid then breaks ties for free. */
  idsInRepoOrder(): boolean {
    this.repoRank();
    return this.inRepoOrder;
  }

  /** The deployment's postings; undefined while it holds no records. */
  postings(): PostingsReader | undefined {
    if (this.postingsRead === undefined) this.postingsRead = openPostings(this.connection.db, this.deployment) ?? null;
    return this.postingsRead ?? undefined;
  }

  /** Every record, as a set. */
  universe(): IdSet {
    this.all ??= IdSet.of(this.connection.prepare(`SELECT id FROM ${this.tables.records}`).pluck().all() as number[], this.capacity);
    return this.all;
  }

  /** A date column in memory (date-column.ts), read on first use; undefined where the column's index must be read instead. */
  dateColumn(column: string): DateColumn | undefined {
    if (this.datesHandedOver && !this.dateColumns.has(column)) return undefined;
    return this.readDateColumn(column);
  }

  private readDateColumn(column: string): DateColumn | undefined {
    let read = this.dateColumns.get(column);
    if (read === undefined)
      this.dateColumns.set(column, (read = DateColumn.read(this.connection, this.tables.records, column, this.capacity) ?? null));
    return read ?? undefined;
  }

  /** Every date-bounded column held in memory, by column, read here for other engines on the file (those DateColumn.read refuses left out). */
  dateColumnsData(): Map<string, DateColumnData> {
    const data = new Map<string, DateColumnData>();
    for (const { column, dateFilter } of searchModel(this.deployment).ordered) {
      const read = dateFilter ? this.readDateColumn(column) : undefined;
      if (read) data.set(column, read.data);
    }
    return data;
  }

  /** Takes the date columns another engine on the file read (dateColumnsData), where it read the same revision. */
  adoptDateColumns(revision: string, columns: ReadonlyMap<string, DateColumnData>): void {
    if (revision !== this.connection.revision) return;
    for (const [column, data] of columns) this.dateColumns.set(column, DateColumn.of(data, this.capacity));
  }

  /** How many records there are. */
  total(): number {
    this.records ??= this.connection.prepare(`SELECT count(*) FROM ${this.tables.records}`).pluck().get() as number;
    return this.records;
  }

  /** Facet values (facet-index.ts), read on first use, or as another engine on the file read them (adoptFacets). */
  facetIndex(): FacetIndex {
    this.facetsRead ??= loadFacetIndex(this.connection.db, this.deployment, this.deployment.facets, this.capacity);
    return this.facetsRead;
  }

  /**
   * The facet index as a generation's reader reads it for every worker: taken over from the
   * generation before's where given and it can be (facets/column-update.ts), with its A–Z
   * orders; the columns' state is kept for the next (columns()).
   */
  readFacets(previous?: PreviousFacets): FacetIndex {
    if (this.facetsRead) return this.facetsRead;
    const read = updateFacetColumns(this.connection.db, this.deployment, this.deployment.facets, this.capacity, previous);
    this.facetsRead = read.index;
    this.columnsState = read.columns;
    if (read.orders) adoptFacetPages(read.index, read.orders);
    // Said only where there was an index before: a first read is the usual "reading the facet values".
    if (previous)
      this.columnsHow = read.readAgain
        ? `every column read (${read.readAgain})`
        : `taken over from the generation before, ${read.recordsRead} of ${this.capacity - 1} records read again`;
    return read.index;
  }

  /** The facet columns' state readFacets() read, for the next generation's reader. */
  columns(): FacetColumns | undefined {
    return this.columnsState;
  }

  columnsRead(): string | undefined {
    return this.columnsHow;
  }

  adoptFacetIndex(index: FacetIndex): void {
    this.facetsRead = index;
  }

  /** The stored values an exact criterion finds: a person's name finds the shorter forms that join it too (name-joins.ts). */
  keyValues(key: KeyName, value: string): readonly string[] {
    if (!this.deployment.facets.some((facet) => facet.key === key && facet.fold === 'person')) return [value];
    let groups = this.nameGroups.get(key);
    if (!groups) this.nameGroups.set(key, (groups = joinedGroups(storedJoins(this.connection.db, this.deployment, key))));
    return groups.get(value) ?? [value];
  }

  /** The words records hold, for suggestions (suggest/vocabulary.ts); built on the first, or as another engine on the file built them (adoptVocabulary). */
  vocabulary(): Vocabulary {
    this.words ??= buildVocabulary(this.connection.db, this.deployment);
    return this.words;
  }

  /** The vocabulary as plain arrays, for other threads; built here (not kept: this engine hands it over and closes), from `previous` where given. */
  vocabularyData(previous?: VocabularyData): VocabularyData {
    return vocabularyData(this.connection.db, this.deployment, previous);
  }

  adoptVocabulary(data: VocabularyData): void {
    this.words = vocabularyOf(data, recordsHoldingIn(this.connection.db, this.deployment));
  }
}

/** Each deployment's state on one connection, made on first use. */
export function deploymentStates(connection: ReadConnection, datesHandedOver = false): (key: DeploymentKey) => DeploymentState {
  const states = new Map<DeploymentKey, DeploymentState>();
  return (key) => {
    let state = states.get(key);
    if (!state) states.set(key, (state = new DeploymentState(connection, deploymentByKey(key)!, datesHandedOver)));
    return state;
  };
}
