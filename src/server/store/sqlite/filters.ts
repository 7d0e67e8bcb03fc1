import { storeColumn } from '../../../deployments/search-model';
import type { YearRange } from '../../../formats/query-years';
import { IdSet } from '../../engine/id-set';
import { TextSearch } from '../../engine/search';
import { forEachKeyId, keyChunkHas, keyChunkOf } from './key-lists';
import type { Criteria, FacetSelection, Selector } from '../types';
import type { DeploymentState } from './deployment-state';
import type { ReadConnection } from './read-connection';

/** Records matching one facet value (its selector), kept per connection: they depend on the data only. */
const selectorSetCacheSize = 256;

/**
 * The criteria of a search as id sets: exact keys, repo_ids and facet selections are read
 * from their indexes, dates from their column in memory (date-column.ts), and combined in memory, the filter the engine searches its text
 * within (engine/search.ts).
 */
export class Filters {
  private readonly selectorSets = new Map<string, IdSet>();

  constructor(private readonly connection: ReadConnection) {}

  /** Every criterion but the text, as one id set; undefined when there is nothing to filter. */
  filterSet(state: DeploymentState, criteria: Criteria): IdSet | undefined {
    const sets = criteria.repoIds !== undefined ? [this.repoIdSet(state, criteria.repoIds, criteria)] : this.keySets(state, criteria);
    for (const { field, from, to } of criteria.dates) {
      if (from === undefined && to === undefined) continue;
      const column = storeColumn(state.deployment, field);
      sets.push(state.dateColumn(column)?.range(from, to) ?? this.dateSet(state, column, from, to));
    }
    for (const selection of criteria.selections ?? []) sets.push(this.selectionSet(state, selection));
    if (sets.length === 0) return undefined;
    return sets.slice(1).reduce((acc, set) => acc.and(set), sets[0]!);
  }

  /** Records whose `column` is within the bounds, read from its index (where the column is not held in memory). */
  private dateSet(state: DeploymentState, column: string, from: string | undefined, to: string | undefined): IdSet {
    const bounds = [from !== undefined ? `${column} >= ?` : '', to !== undefined ? `${column} < ?` : ''].filter(Boolean).join(' AND ');
    const params = [from, to].filter((value) => value !== undefined);
    const ids = this.connection
      .prepare(`SELECT id FROM ${state.tables.records} WHERE ${bounds}`)
      .pluck()
      .all(...params) as number[];
    return IdSet.of(ids, state.capacity);
  }

  /** The records of these repo_ids that hold every exact key asked for. */
  private repoIdSet(state: DeploymentState, repoIds: readonly string[], criteria: Criteria): IdSet {
    const t = state.tables;
    // One record at most: only its chunk of each key's list is read, rather than every record's under a key.
    const chunkOf = this.connection.prepare(`SELECT data FROM ${t.keys} WHERE name = ? AND value = ? AND chunk = ?`).pluck();
    const hasKey = (key: string, value: string, id: number) => {
      const chunk = keyChunkOf(id);
      const data = chunkOf.get(key, value, chunk) as Uint8Array | undefined;
      return data !== undefined && keyChunkHas(chunk, data, id);
    };
    const byId = this.connection.prepare(`SELECT id FROM ${t.records} WHERE repo_id IN (SELECT value FROM json_each(?))`).pluck();
    const ids = (byId.all(JSON.stringify(repoIds)) as number[]).filter((id) =>
      criteria.exact.every(({ key, value }) => state.keyValues(key, value).some((each) => hasKey(key, each, id))),
    );
    return IdSet.of(ids, state.capacity);
  }

  /** The records holding each exact key asked for, a set a key. */
  private keySets(state: DeploymentState, criteria: Criteria): IdSet[] {
    const t = state.tables;
    const chunks = this.connection.prepare(`SELECT chunk, data FROM ${t.keys} WHERE name = ? AND value = ?`).raw();
    return criteria.exact.map(({ key, value }) => {
      const set = new IdSet(state.capacity);
      for (const each of state.keyValues(key, value)) {
        for (const [chunk, data] of chunks.all(key, each) as [number, Uint8Array][]) forEachKeyId(chunk, data, (id) => set.add(id));
      }
      return set;
    });
  }

  /** The search of `criteria`'s text over the postings, within `filter`; undefined when it has no text. */
  textSearch(state: DeploymentState, criteria: Criteria, filter: IdSet | undefined): TextSearch | undefined {
    const publishedIn = ({ from, to }: YearRange) => this.publishedSet(state, from, to);
    return TextSearch.of(state.postings()!, criteria.text, {
      capacity: state.capacity,
      universe: () => state.universe(),
      filter,
      publishedIn,
    });
  }

  /** Records published in the years `from` to `to`, kept as a facet value's are (ISO dates compare by their year first). */
  private publishedSet(state: DeploymentState, from: number, to: number): IdSet {
    return this.selectorSet(state, { text: [], exact: [], dates: [{ field: 'publication_date', from: String(from), to: String(to + 1) }] });
  }

  /** Every record matching `criteria`, as a set; undefined when nothing narrows (every record). */
  matchingSet(state: DeploymentState, criteria: Criteria): IdSet | undefined {
    if (!state.postings()) return IdSet.of([], state.capacity);
    const filter = this.filterSet(state, criteria);
    return this.textSearch(state, criteria, filter)?.matches() ?? filter;
  }

  /** The records one facet value selects, kept for the next search that selects it. */
  selectorSet(state: DeploymentState, selector: Selector): IdSet {
    const cacheKey = `${state.deployment.key}\u0000${JSON.stringify(selector)}`;
    let set = this.selectorSets.get(cacheKey);
    if (set) this.selectorSets.delete(cacheKey);
    else {
      set = this.matchingSet(state, { ...selector, sort: 'relevance', order: 'desc', offset: 0, limit: 0 }) ?? state.universe();
      if (this.selectorSets.size >= selectorSetCacheSize) this.selectorSets.delete(this.selectorSets.keys().next().value!);
    }
    this.selectorSets.set(cacheKey, set);
    return set;
  }

  /** Records matching any selected value of a facet (every record when none is) and no excluded one. */
  selectionSet(state: DeploymentState, { anyOf, noneOf }: FacetSelection): IdSet {
    const union = (values: FacetSelection['anyOf']) =>
      values
        .map(({ selector }) => this.selectorSet(state, selector))
        .reduce<IdSet | undefined>((acc, set) => (acc ? acc.or(set) : set), undefined);
    const any = union(anyOf) ?? state.universe();
    const none = union(noneOf);
    return none ? any.andNot(none) : any;
  }
}
