import Database from 'better-sqlite3';
import { deploymentByKey, deployments, type ApiRecord } from '../../deployments/registry';
import type { KeyName } from '../../deployments/key-names';
import type { Deployment, DeploymentKey } from '../../deployments/schema';
import { searchModel, storeColumn } from '../../deployments/search-model';
import { collectFacetCounts } from './facet-collector';
import { loadFacetIndex, type FacetIndex } from './facet-index';
import { selectionOf } from './facet-values';
import { pageOfCounts, prepareFacetPages } from './facet-page';
import { IdSet } from '../engine/id-set';
import type { PostingsReader } from '../engine/postings/index-reader';
import { TextSearch } from '../engine/search';
import type { YearRange } from '../../formats/query-years';
import type { Suggestion } from '../../formats/suggest-response';
import { suggestQuery, type Vocabulary } from '../suggest/suggest-query';
import { buildVocabulary } from '../suggest/vocabulary';
import { joinedGroups, storedJoins } from './name-joins';
import type { CountSharing } from './count-sharing';
import { openPostings } from './postings-reader';
import { modelChanges } from './model-digest';
import { orderIndex, storeSchemaVersion, tablesOf } from './sqlite/schema';
import { fileIdentity, moveSnapshotOffLog, type FileIdentity, type SnapshotMove } from './sqlite/snapshot-move';
import type { Criteria, FacetRequest, FacetSelection, FacetsResult, Selector } from './types';

/**
 * The query engine over one read-only connection: it orders the records that match a
 * search and counts them, exactly, and fetches records by id. Paging and caching live
 * above it (cached-store.ts), so one ordering serves every page of a search.
 *
 * How a search runs (measured at 1M records: bench/notes.md):
 * - Text of every shape is matched, counted and ranked from the deployment's postings by
 *   the engine (engine/search.ts), with FTS5's bm25 to the bit. Ties break on repo_id
 *   through an in-memory rank of repo_ids, so no row is looked up to sort.
 * - The other criteria (dates, exact keys, repo_id, facet selections) are id sets read
 *   from their indexes and combined in memory: the filter the engine searches within.
 * - Date and title order: the sort index is walked in order and rows outside the match
 *   set are skipped, stopping after the rows needed; a small match set is sorted instead.
 *
 * Every statement is prepared with placeholders; SQL text is assembled only from the
 * deployment table's table and column names, and statements are cached by their text.
 */

/** The first `ids.length` records of a search's order, and how many match in all. */
export interface Ranked {
  readonly total: number;
  readonly ids: Int32Array;
  /** The ids are the whole order, not a prefix of it. */
  readonly complete: boolean;
}

/** Records as their stored JSON text, with the repo_ids of those that are generated demo records. */
export interface MarkedDocs {
  readonly docs: string[];
  readonly generated: string[];
}

export interface QueryEngine {
  readonly revision: string;
  /** Orders the records matching `criteria` (paging ignored) far enough to cover `need` rows. */
  rank(key: DeploymentKey, criteria: Criteria, need: number): Ranked;
  /** Exact counts by value of the records matching `criteria`, per facet asked for. */
  facets(key: DeploymentKey, criteria: Criteria, requests: readonly FacetRequest[]): FacetsResult;
  /** Records by id as their stored JSON text, in the order given (missing ids are skipped). */
  fetch(key: DeploymentKey, ids: ArrayLike<number>): string[];
  /** fetch, and which of those records are generated demo records (their repo_ids), from the same rows. */
  fetchMarked(key: DeploymentKey, ids: ArrayLike<number>): MarkedDocs;
  get(key: DeploymentKey, repoId: string): ApiRecord | undefined;
  fulltext(key: DeploymentKey, repoId: string): string | undefined;
  count(key: DeploymentKey): number;
  /** "Did you mean" for a search's words, from the deployment's vocabulary (built on first use). */
  suggest(key: DeploymentKey, q: string): Suggestion | undefined;
  /** Builds what the first search of each deployment would otherwise build (the repo_id ranks, the facet values). */
  warm(): void;
  /** warm() without the facet values: what searches need, so they can be answered before the facets are read. */
  warmSearch(): void;
  /** The facet values warm() read, in memory every thread can share (one copy per generation, not per worker). */
  sharedFacets(): SharedFacets;
  /** Takes facet values another engine on the same file read (sharedFacets), instead of reading them on first use. */
  adoptFacets(facets: SharedFacets): void;
  /** Moves a pinned snapshot off the write-ahead log, reading the same data (snapshot-move.ts). */
  moveSnapshot(): SnapshotMove;
  close(): void;
}

/** Per deployment, its facet index, its arrays on shared memory. */
export type SharedFacets = ReadonlyMap<DeploymentKey, { readonly facetIndex: FacetIndex }>;

function onSharedMemory(index: FacetIndex): FacetIndex {
  const shared = (array: Int32Array) => {
    const copy = new Int32Array(new SharedArrayBuffer(array.byteLength));
    copy.set(array);
    return copy;
  };
  const { joint } = index;
  return {
    facets: index.facets,
    offsets: shared(index.offsets),
    codes: shared(index.codes),
    totals: shared(index.totals),
    ...(joint ? { joint: { base: joint.base, starts: shared(joint.starts), members: shared(joint.members) } } : {}),
  };
}

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
}

/** Per-deployment data built on first use and kept for the life of the (read-only) connection. */
interface DeploymentState {
  readonly deployment: Deployment;
  /** One more than the largest record id: the size of every id set. */
  readonly capacity: number;
  /** repoRank[id] is the position of the record's repo_id in repo_id order. */
  repoRank?: Int32Array;
  /** Whether ids ascend in repo_id order (true of generated corpora): rowid then breaks ties for free. */
  idsInRepoOrder?: boolean;
  universe?: IdSet;
  total?: number;
  /** The deployment's postings; null while it holds no records (a write builds them with its first). */
  postings?: PostingsReader | null;
  /** Facet values, read on first use (facet-index.ts). */
  facetIndex?: FacetIndex;
  /** Per person-folded key, each name of a joined group and the group's names, read on first use. */
  nameGroups?: Map<KeyName, ReadonlyMap<string, readonly string[]>>;
  /** The words records hold, for suggestions (suggest/vocabulary.ts); built on the first. */
  vocabulary?: Vocabulary;
}

/** Records matching one facet value (its selector), kept per connection: they depend on the data only. */
const selectorSetCacheSize = 256;

export function openEngine(path: string, { snapshot = false, sharing }: EngineOptions = {}): QueryEngine {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  let revision: string;
  /** The file whose snapshot this connection holds, if it holds one. */
  let opened: FileIdentity | undefined;
  let schema: string | undefined;
  let model: string | undefined;
  try {
    // The transaction's snapshot is taken by its first read, the revision's. Only in WAL mode:
    // with a rollback journal, a reader's open transaction would keep every writer out.
    if (snapshot && db.pragma('journal_mode', { simple: true }) === 'wal') {
      opened = fileIdentity(path);
      db.exec('BEGIN');
    }
    schema = db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'schema'`).get()?.value;
    model = db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'model'`).get()?.value;
    revision = db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'revision'`).get()?.value ?? 'empty';
  } catch (error) {
    db.close();
    throw new Error(`${path} is not a Records Explorer database (${(error as Error).message}).`, { cause: error });
  }
  const schemaVersion = storeSchemaVersion();
  if (schema !== schemaVersion) {
    db.close();
    // Another schema lacks sort or date columns or keys the deployment table now asks for.
    const changes = modelChanges(model);
    throw new Error(
      `${path} was built for another version of the deployment table or store (store schema ${schema ?? 'missing'}, this version needs ${schemaVersion}${changes.length ? `; changed: ${changes.join('; ')}` : ''}): rebuild it (remove the file, then 'npm start' or 'records import'/'records generate').`,
    );
  }
  // Somewhat more page cache than SQLite's 2 MB default, for index interiors and hot
  // doclists. Not much more: the OS caches the file anyway, and at 1M records 64 MB per
  // connection measured no faster than 8 MB while adding to every worker's memory.
  db.pragma('cache_size = -16384');

  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };

  // `keep(id)`, which SQL calls back into, filters rows by the current id set. Queries run
  // one at a time on this connection, so the set is a plain variable set before each one.
  let keepSet: IdSet | undefined;
  db.function('keep', { deterministic: false, directOnly: true }, (id) => (keepSet && !keepSet.has(Number(id)) ? 0 : 1));

  const states = new Map<DeploymentKey, DeploymentState>();
  function stateOf(key: DeploymentKey): DeploymentState {
    let state = states.get(key);
    if (!state) {
      const deployment = deploymentByKey(key)!;
      const t = tablesOf(deployment);
      const maxId = (prepare(`SELECT max(id) FROM ${t.records}`).pluck().get() as number | null) ?? 0;
      state = { deployment, capacity: maxId + 1 };
      states.set(key, state);
    }
    return state;
  }

  function repoRankOf(state: DeploymentState): Int32Array {
    if (!state.repoRank) {
      const t = tablesOf(state.deployment);
      const rank = new Int32Array(state.capacity);
      const ids = prepare(`SELECT id FROM ${t.records} ORDER BY repo_id`).pluck().all() as number[];
      let ascending = true;
      for (let i = 0; i < ids.length; i++) {
        rank[ids[i]!] = i;
        if (i > 0 && ids[i]! < ids[i - 1]!) ascending = false;
      }
      state.repoRank = rank;
      state.idsInRepoOrder = ascending;
    }
    return state.repoRank;
  }

  function postingsOf(state: DeploymentState): PostingsReader | undefined {
    if (state.postings === undefined) state.postings = openPostings(db, state.deployment) ?? null;
    return state.postings ?? undefined;
  }

  function universeOf(state: DeploymentState): IdSet {
    state.universe ??= IdSet.of(
      prepare(`SELECT id FROM ${tablesOf(state.deployment).records}`)
        .pluck()
        .all() as number[],
      state.capacity,
    );
    return state.universe;
  }

  /** The stored values an exact criterion finds: a person's name finds the shorter forms that join it too (name-joins.ts). */
  function keyValues(state: DeploymentState, key: KeyName, value: string): readonly string[] {
    if (!state.deployment.facets.some((facet) => facet.key === key && facet.fold === 'person')) return [value];
    state.nameGroups ??= new Map();
    let groups = state.nameGroups.get(key);
    if (!groups) state.nameGroups.set(key, (groups = joinedGroups(storedJoins(db, state.deployment, key))));
    return groups.get(value) ?? [value];
  }

  /** Every criterion but the text, as one id set; undefined when there is nothing to filter. */
  function filterSet(state: DeploymentState, criteria: Criteria): IdSet | undefined {
    const t = tablesOf(state.deployment);
    const sets: IdSet[] = [];
    if (criteria.repoIds !== undefined) {
      // One record at most: its own keys are looked up, rather than every record's under a key.
      const hasKey = prepare(`SELECT 1 FROM ${t.keys} WHERE name = ? AND value = ? AND rec = ?`).pluck();
      const byId = prepare(`SELECT id FROM ${t.records} WHERE repo_id IN (SELECT value FROM json_each(?))`).pluck();
      const ids = (byId.all(JSON.stringify(criteria.repoIds)) as number[]).filter((id) =>
        criteria.exact.every(({ key, value }) => keyValues(state, key, value).some((each) => hasKey.get(key, each, id) !== undefined)),
      );
      sets.push(IdSet.of(ids, state.capacity));
    } else {
      for (const { key, value } of criteria.exact) {
        const values = keyValues(state, key, value);
        const recs =
          values.length === 1
            ? prepare(`SELECT rec FROM ${t.keys} WHERE name = ? AND value = ?`).pluck().all(key, value)
            : prepare(`SELECT rec FROM ${t.keys} WHERE name = ? AND value IN (SELECT value FROM json_each(?))`)
                .pluck()
                .all(key, JSON.stringify(values));
        sets.push(IdSet.of(recs as number[], state.capacity));
      }
    }
    for (const { field, from, to } of criteria.dates) {
      if (from === undefined && to === undefined) continue;
      const column = storeColumn(state.deployment, field);
      const bounds = [from !== undefined ? `${column} >= ?` : '', to !== undefined ? `${column} < ?` : ''].filter(Boolean).join(' AND ');
      const params = [from, to].filter((value) => value !== undefined);
      sets.push(
        IdSet.of(
          prepare(`SELECT id FROM ${t.records} WHERE ${bounds}`)
            .pluck()
            .all(...params) as number[],
          state.capacity,
        ),
      );
    }
    for (const selection of criteria.selections ?? []) sets.push(selectionSet(state, selection));
    if (sets.length === 0) return undefined;
    return sets.slice(1).reduce((acc, set) => acc.and(set), sets[0]!);
  }

  /**
   * Records in date or title order. `set` holds the records that match (undefined: all).
   * A sparse set is sorted outright; otherwise the sort index is walked and rows outside
   * the set are skipped, which touches about need × N / total index entries.
   */
  function rankByColumn(
    state: DeploymentState,
    sort: string,
    descending: boolean,
    set: IdSet | undefined,
    criteria: Criteria,
    need: number,
  ): Ranked {
    const t = tablesOf(state.deployment);
    const column = storeColumn(state.deployment, sort);
    const dir = descending ? 'DESC' : 'ASC';
    const total = set ? set.count() : (state.total ??= prepare(`SELECT count(*) FROM ${t.records}`).pluck().get() as number);
    const limit = Math.min(need, total);
    if (limit === 0) return { total, ids: new Int32Array(0), complete: true };

    if (set && need * state.capacity > 10 * total * total) {
      // Few matches: sort them (empty dates last in either order, as in the walk below).
      const ids = prepare(
        `SELECT id FROM ${t.records} WHERE id IN (SELECT value FROM json_each(?)) ORDER BY ${column} IS NULL, ${column} ${dir}, repo_id ${dir} LIMIT ?`,
      )
        .pluck()
        .all(JSON.stringify(set.toArray()), limit) as number[];
      return { total, ids: Int32Array.from(ids), complete: ids.length >= total };
    }

    // Bounds on the sort column itself narrow the walk; the set check covers the rest.
    const range: string[] = [];
    const params: unknown[] = [];
    for (const { field, from, to } of criteria.dates) {
      if (storeColumn(state.deployment, field) !== column) continue;
      if (from !== undefined) {
        range.push(`${column} >= ?`);
        params.push(from);
      }
      if (to !== undefined) {
        range.push(`${column} < ?`);
        params.push(to);
      }
    }
    const setCheck = set ? ['keep(id)'] : [];
    keepSet = set;
    try {
      const index = orderIndex(state.deployment, column);
      const where = (extra: string) => [extra, ...range, ...setCheck].join(' AND ');
      // SQLite puts NULL first in ascending order; records without a date go last in both.
      const dated = prepare(
        `SELECT id FROM ${t.records} INDEXED BY ${index} WHERE ${where(`${column} IS NOT NULL`)} ORDER BY ${column} ${dir}, repo_id ${dir} LIMIT ?`,
      )
        .pluck()
        .all(...params, limit) as number[];
      let ids = dated;
      if (dated.length < limit && range.length === 0) {
        const undated = prepare(
          `SELECT id FROM ${t.records} INDEXED BY ${index} WHERE ${where(`${column} IS NULL`)} ORDER BY repo_id ${dir} LIMIT ?`,
        )
          .pluck()
          .all(limit - dated.length) as number[];
        ids = dated.concat(undated);
      }
      return { total, ids: Int32Array.from(ids), complete: ids.length >= total };
    } finally {
      keepSet = undefined;
    }
  }

  /** The search of `criteria`'s text over the postings, within its other criteria; undefined when it has no text. */
  function textSearch(state: DeploymentState, postings: PostingsReader, criteria: Criteria, filter: IdSet | undefined) {
    const publishedIn = ({ from, to }: YearRange) => publishedSet(state, from, to);
    return TextSearch.of(postings, criteria.text, { capacity: state.capacity, universe: () => universeOf(state), filter, publishedIn });
  }

  /** Records published in the years `from` to `to`, kept as a facet value's are (ISO dates compare by their year first). */
  const publishedSet = (state: DeploymentState, from: number, to: number) =>
    selectorSet(state, { text: [], exact: [], dates: [{ field: 'publication_date', from: String(from), to: String(to + 1) }] });

  /** Every record matching `criteria`, as a set; undefined when nothing narrows (every record). */
  function matchingSet(state: DeploymentState, criteria: Criteria): IdSet | undefined {
    const postings = postingsOf(state);
    if (!postings) return IdSet.of([], state.capacity);
    const filter = filterSet(state, criteria);
    return textSearch(state, postings, criteria, filter)?.matches() ?? filter;
  }

  /** The records a selector selects (every record for an empty one). */
  const selectedBy = (state: DeploymentState, selector: Selector) =>
    matchingSet(state, { ...selector, sort: 'relevance', order: 'desc', offset: 0, limit: 0 }) ?? universeOf(state);

  const selectorSets = new Map<string, IdSet>();
  /** The records one facet value selects, kept for the next search that selects it. */
  function selectorSet(state: DeploymentState, selector: Selector): IdSet {
    const cacheKey = `${state.deployment.key}\u0000${JSON.stringify(selector)}`;
    let set = selectorSets.get(cacheKey);
    if (set) selectorSets.delete(cacheKey);
    else {
      set = selectedBy(state, selector);
      if (selectorSets.size >= selectorSetCacheSize) selectorSets.delete(selectorSets.keys().next().value!);
    }
    selectorSets.set(cacheKey, set);
    return set;
  }

  /** Records matching any selected value of a facet (every record when none is) and no excluded one. */
  function selectionSet(state: DeploymentState, { anyOf, noneOf }: FacetSelection): IdSet {
    const union = (values: FacetSelection['anyOf']) =>
      values
        .map(({ selector }) => selectorSet(state, selector))
        .reduce<IdSet | undefined>((acc, set) => (acc ? acc.or(set) : set), undefined);
    const any = union(anyOf) ?? universeOf(state);
    const none = union(noneOf);
    return none ? any.andNot(none) : any;
  }

  function facetIndexOf(state: DeploymentState): FacetIndex {
    state.facetIndex ??= loadFacetIndex(db, state.deployment, state.deployment.facets, state.capacity);
    return state.facetIndex;
  }

  function facets(key: DeploymentKey, criteria: Criteria, requests: readonly FacetRequest[]): FacetsResult {
    const state = stateOf(key);
    const { deployment } = state;
    const { selections = [], ...search } = criteria;
    const asked = requests.map((request) => {
      const facet = deployment.facets.find((candidate) => candidate.name === request.name)!;
      const selection = selectionOf(criteria, facet.name);
      const chosen = [...(selection?.anyOf ?? []), ...(selection?.noneOf ?? [])];
      return {
        name: facet.name,
        index: facetIndexOf(state),
        checks: chosen.map(({ selector }) => selectorSet(state, selector)),
        request,
        selection,
      };
    });
    // One pass over the search's records counts every facet, each without its own selection
    // (facet-collector.ts); a search of every record without selections is the index's totals.
    const matching = matchingSet(state, search);
    const collected =
      matching || selections.length > 0 || asked.some(({ checks }) => checks.length > 0)
        ? collectFacetCounts(
            matching ?? universeOf(state),
            selections.map((selection) => ({ facet: selection.facet, members: selectionSet(state, selection) })),
            asked,
            sharing,
          )
        : {
            total: (state.total ??= prepare(`SELECT count(*) FROM ${tablesOf(deployment).records}`)
              .pluck()
              .get() as number),
            counts: asked.map(({ index }) => index.totals),
            checked: asked.map(() => []),
          };
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

  function rank(key: DeploymentKey, criteria: Criteria, need: number): Ranked {
    const state = stateOf(key);
    const postings = postingsOf(state);
    if (!postings) return { total: 0, ids: new Int32Array(0), complete: true };
    const wanted = Math.max(1, need);
    const descending = criteria.order !== 'asc';
    // Every shape of text is matched, counted and ranked from the postings (engine/search.ts).
    const filter = filterSet(state, criteria);
    const text = textSearch(state, postings, criteria, filter);
    if (text?.scored && criteria.sort === 'relevance') {
      const total = text.count();
      const ranks = repoRankOf(state);
      const ids = text.rank(wanted, descending, state.idsInRepoOrder ? undefined : ranks);
      return { total, ids, complete: ids.length >= total };
    }
    // Nothing to rank by relevance (no words, or only negated ones): newest first.
    const sort = criteria.sort === 'relevance' ? searchModel(state.deployment).defaults.browseSort : criteria.sort;
    return rankByColumn(state, sort, descending, text ? text.matches() : filter, criteria, wanted);
  }

  function warmSearch() {
    for (const deployment of deployments) {
      const state = stateOf(deployment.key);
      repoRankOf(state);
      postingsOf(state);
    }
  }

  return {
    revision,
    rank,
    facets,
    fetch(key, ids) {
      // Text, not parsed records: a JSON response is written from it as it is (api.ts),
      // and a string crosses to the main thread far cheaper than an object graph.
      const statement = prepare(`SELECT doc FROM ${tablesOf(deploymentByKey(key)!).records} WHERE id = ?`).pluck();
      const docs: string[] = [];
      for (let i = 0; i < ids.length; i++) {
        const doc = statement.get(ids[i]) as string | undefined;
        if (doc !== undefined) docs.push(doc);
      }
      return docs;
    },
    fetchMarked(key, ids) {
      const statement = prepare(`SELECT repo_id, doc, generated FROM ${tablesOf(deploymentByKey(key)!).records} WHERE id = ?`);
      const docs: string[] = [];
      const generated: string[] = [];
      for (let i = 0; i < ids.length; i++) {
        const row = statement.get(ids[i]) as { repo_id: string; doc: string; generated: number } | undefined;
        if (!row) continue;
        docs.push(row.doc);
        if (row.generated) generated.push(row.repo_id);
      }
      return { docs, generated };
    },
    get(key, repoId) {
      const doc = prepare(`SELECT doc FROM ${tablesOf(deploymentByKey(key)!).records} WHERE repo_id = ?`)
        .pluck()
        .get(repoId) as string | undefined;
      return doc === undefined ? undefined : (JSON.parse(doc) as ApiRecord);
    },
    fulltext(key, repoId) {
      const t = tablesOf(deploymentByKey(key)!);
      const text = prepare(`SELECT x.fulltext FROM ${t.records} r JOIN ${t.text} x ON x.id = r.id WHERE r.repo_id = ?`)
        .pluck()
        .get(repoId) as string | undefined;
      return text || undefined;
    },
    suggest(key, q) {
      const state = stateOf(key);
      if (!postingsOf(state)) return undefined;
      state.vocabulary ??= buildVocabulary(db, state.deployment);
      return suggestQuery(q, state.vocabulary);
    },
    count(key) {
      const state = stateOf(key);
      state.total ??= prepare(`SELECT count(*) FROM ${tablesOf(state.deployment).records}`)
        .pluck()
        .get() as number;
      return state.total;
    },
    warm() {
      warmSearch();
      // Facet values are read once per connection: seconds for a million records, which
      // must not be spent inside one request's time budget.
      for (const deployment of deployments) {
        const state = stateOf(deployment.key);
        if (state.capacity > 1) prepareFacetPages(facetIndexOf(state));
      }
    },
    warmSearch,
    sharedFacets() {
      const shared = new Map<DeploymentKey, { facetIndex: FacetIndex }>();
      for (const deployment of deployments) {
        const state = stateOf(deployment.key);
        if (state.capacity <= 1) continue;
        shared.set(deployment.key, { facetIndex: onSharedMemory(facetIndexOf(state)) });
      }
      return shared;
    },
    adoptFacets(facets) {
      for (const [key, { facetIndex }] of facets) {
        stateOf(key).facetIndex = facetIndex;
        prepareFacetPages(facetIndex);
      }
    },
    moveSnapshot() {
      return opened ? moveSnapshotOffLog(db, path, opened, revision) : 'unpinned';
    },
    close() {
      db.close();
    },
  };
}
