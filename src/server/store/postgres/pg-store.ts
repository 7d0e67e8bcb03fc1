import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { deploymentByKey, deployments, type ApiRecord } from '../../../deployments/registry';
import type { FacetDef } from '../../../deployments/facets';
import { searchColumns, type Deployment, type DeploymentKey, type SearchColumn } from '../../../deployments/schema';
import { searchModel, storeColumn } from '../../../deployments/search-model';
import { textColumns } from '../../../formats/index-text';
import { keysOf } from '../../../formats/keys';
import { sortKeysOf } from '../../../formats/sort-keys';
import { kindOf } from '../../../formats/facet-kinds';
import {
  broaderPage,
  decadeOf,
  facetKeyName,
  facetRowsOf,
  hasFacetRows,
  isCaseless,
  pageOfValues,
  phraseSelector,
  runPlanAsync,
  selectionOf,
  withoutSelection,
  withSelector,
} from '../facet-values';
import {
  type Criteria,
  type FacetRequest,
  type FacetSelection,
  type FacetsResult,
  type RecordStore,
  type SearchResult,
  type Selector,
  type StoredRecord,
} from '../types';
import { defaultStatementTimeoutMs, openPools, parseStoreUrl, type BudgetedRead } from './pg-pool';
import {
  columnWeightClass,
  createTableSql,
  keyElement,
  pgSchemaVersion,
  pgTable,
  rankWeights,
  setupSql,
  textConfig,
  tsvColumn,
} from './pg-schema';
import { hasPositive, looseTsquerySql, toTsquery } from './tsquery';

/**
 * The API's store on PostgreSQL: full-text search by tsvector and GIN, exact totals by
 * count(*), the SQLite store's orderings (ties on repo_id, empty dates last), reads spread
 * over streaming replicas. Every statement is parameterised; SQL text is assembled only
 * from the deployment table's names.
 */

/**
 * PostgreSQL text cannot hold NUL. Values stored and values asked for are mapped alike, so
 * an identifier with a NUL still finds itself; in searched text a NUL separates words.
 */
const nulFree = (text: string) => text.replace(/\u0000/g, '\uFFFD');
const nulFreeValue = (value: unknown): unknown =>
  typeof value === 'string' ? nulFree(value) : Array.isArray(value) ? value.map(nulFreeValue) : value;
const wordsOnly = (text: string) => text.replace(/\u0000/g, ' ');

/** A growing list of query parameters and the `$n` that names each. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(nulFreeValue(value));
    return `$${this.values.length}`;
  }
}

function textVector(columns: readonly SearchColumn[]): string {
  return columns.length === searchColumns.length ? 'tsv' : `(${columns.map(tsvColumn).join(' || ')})`;
}

/** The conditions (AND'd) of what a selector selects; text ranks are pushed to `ranks` when given. */
function selectorConditions(deployment: Deployment, selector: Selector, params: Params, ranks?: string[]): string[] {
  const where: string[] = [];
  for (const { columns, query } of selector.text) {
    const tsquery = `to_tsquery('${textConfig}', ${params.add(toTsquery(query, wordsOnly))})`;
    const vector = textVector(columns);
    // The whole-record vector is indexed: a positive query is first matched there, loosely
    // where it can be (no recheck of that vector), then exactly in the parameter's columns.
    if (vector !== 'tsv' && hasPositive(query))
      where.push(`tsv @@ ${looseTsquerySql(query, textConfig, (text) => params.add(wordsOnly(text))) ?? tsquery}`);
    where.push(`${vector} @@ ${tsquery}`);
    if (hasPositive(query)) ranks?.push(`ts_rank('${rankWeights}', ${vector}, ${tsquery})`);
  }
  if (selector.exact.length) {
    where.push(`keys @> ${params.add(selector.exact.map(({ key, value }) => keyElement(key, value)))}::text[]`);
  }
  for (const { field, from, to } of selector.dates) {
    const column = storeColumn(deployment, field);
    if (from !== undefined) where.push(`${column} >= ${params.add(from)}`);
    if (to !== undefined) where.push(`${column} < ${params.add(to)}`);
  }
  return where;
}

/** A facet's selection: any selected value (when one is) and no excluded one. An empty date is no match, never unknown. */
function selectionCondition(deployment: Deployment, { anyOf, noneOf }: FacetSelection, params: Params): string {
  const anyValue = (values: FacetSelection['anyOf']) =>
    values.map(({ selector }) => `(${selectorConditions(deployment, selector, params).join(' AND ')})`).join(' OR ');
  const parts = anyOf.length ? [`(${anyValue(anyOf)})`] : [];
  if (noneOf.length) parts.push(`NOT coalesce(${anyValue(noneOf)}, false)`);
  return parts.join(' AND ');
}

/** The conditions of a whole search. */
function searchConditions(deployment: Deployment, criteria: Criteria, params: Params, ranks?: string[]): string[] {
  const where = selectorConditions(deployment, criteria, params, ranks);
  if (criteria.repoIds !== undefined) where.push(`repo_id = ANY(${params.add(criteria.repoIds)}::text[])`);
  for (const selection of criteria.selections ?? []) where.push(selectionCondition(deployment, selection, params));
  return where;
}

function compileSearch(deployment: Deployment, criteria: Criteria) {
  const params = new Params();
  const ranks: string[] = [];
  const where = searchConditions(deployment, criteria, params, ranks);
  const condition = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const descending = criteria.order !== 'asc';
  let orderBy: string;
  if (criteria.sort === 'relevance' && ranks.length) {
    // Best first for "desc"; ties on repo_id ascending either way, as in the SQLite store.
    orderBy = `ORDER BY ${ranks.join(' + ')} ${descending ? 'DESC' : 'ASC'}, repo_id ASC`;
  } else {
    const column = storeColumn(deployment, criteria.sort === 'relevance' ? searchModel(deployment).defaults.browseSort : criteria.sort);
    const dir = descending ? 'DESC' : 'ASC';
    // Empty values last either way, as in the SQLite store; each direction has its index.
    orderBy = `ORDER BY ${column} ${dir} NULLS LAST, repo_id ${dir}`;
  }
  const t = pgTable(deployment);
  return {
    params,
    condition,
    count: { text: `SELECT count(*)::int AS n FROM ${t} ${condition}`, values: [...params.values] },
    page: {
      text: `SELECT doc FROM ${t} ${condition} ${orderBy} LIMIT $${params.values.length + 1} OFFSET $${params.values.length + 2}`,
      values: [...params.values, criteria.limit, criteria.offset],
    },
  };
}

export interface PgStoreOptions {
  /** Connections per server. */
  readonly poolSize?: number;
  /** How long one statement may run (PostgreSQL's statement_timeout) before it is answered as overloaded. */
  readonly budgetMs?: number;
}

/** Opens the store at `--store`'s URL list: a primary, then any replicas. */
export async function openPgStore(storeUrl: string, { poolSize, budgetMs }: PgStoreOptions = {}): Promise<RecordStore> {
  const pools = openPools(parseStoreUrl(storeUrl), { size: poolSize, statementTimeoutMs: budgetMs });
  let revision: string;
  try {
    const meta = await pools.read<{ key: string; value: string }>({
      text: `SELECT key, value FROM meta WHERE key IN ('schema', 'revision')`,
    });
    const values = new Map(meta.rows.map((row) => [row.key, row.value]));
    if (values.get('schema') !== pgSchemaVersion())
      throw new Error(`store schema ${values.get('schema') ?? 'missing'}, expected ${pgSchemaVersion()}`);
    revision = values.get('revision') ?? 'empty';
  } catch (error) {
    await pools.close();
    throw new Error(`${parseStoreUrl(storeUrl).primary} is not a Records Explorer store (${(error as Error).message}).`, { cause: error });
  }
  const table = (key: DeploymentKey) => pgTable(deploymentByKey(key)!);
  const overallCounts: OverallCounts = new Map();

  return {
    revision,
    async search(key, criteria): Promise<SearchResult> {
      const { count, page } = compileSearch(deploymentByKey(key)!, criteria);
      const [total, rows] = await Promise.all([
        pools.read<{ n: number }>(count),
        criteria.limit > 0 ? pools.read<{ doc: string }>(page) : Promise.resolve({ rows: [] as { doc: string }[] }),
      ]);
      const json = rows.rows.map((row) => row.doc);
      return { total: total.rows[0]!.n, records: json.map((doc) => JSON.parse(doc) as ApiRecord), json };
    },
    facets: (key, criteria, requests) =>
      pools.withBudget(budgetMs ?? defaultStatementTimeoutMs, (read) =>
        facetCounts({ read }, deploymentByKey(key)!, criteria, requests, overallCounts),
      ),
    async get(key, repoId) {
      const result = await pools.read<{ doc: string }>({
        text: `SELECT doc FROM ${table(key)} WHERE repo_id = $1`,
        values: [nulFree(repoId)],
      });
      return result.rows[0] ? (JSON.parse(result.rows[0].doc) as ApiRecord) : undefined;
    },
    async fulltext(key, repoId) {
      const result = await pools.read<{ fulltext: string | null }>({
        text: `SELECT fulltext FROM ${table(key)} WHERE repo_id = $1`,
        values: [nulFree(repoId)],
      });
      return result.rows[0]?.fulltext || undefined;
    },
    async count(key) {
      const result = await pools.read<{ n: number }>({ text: `SELECT count(*)::int AS n FROM ${table(key)}` });
      return result.rows[0]!.n;
    },
    close: () => pools.close(),
  };
}

/**
 * A record's facet values as its `facets` column holds them, `facet-name:value`: its facet
 * rows (facetRowsOf), the exact-match keys a facet counts, the year or decade of a date.
 * Each value's group is there once.
 */
function facetValuesOf(
  deployment: Deployment,
  keys: readonly [string, string][],
  rows: readonly [string, string][],
  sortKeys: readonly (string | null)[],
): string[] {
  const ordered = searchModel(deployment).ordered;
  return deployment.facets.flatMap((facet) => {
    const { criterion } = facet;
    if (criterion.kind === 'date-range') {
      const year = sortKeys[ordered.findIndex(({ field }) => field === criterion.field)]?.slice(0, 4) ?? '';
      return /^\d{4}$/.test(year) ? [`${facet.name}:${criterion.unit === 'year' ? year : decadeOf(year)}`] : [];
    }
    const [source, name] = hasFacetRows(facet) ? [rows, facetKeyName(facet)] : [keys, facet.key];
    return source.filter(([key]) => key === name).map(([, value]) => `${facet.name}:${value}`);
  });
}

/** Per deployment and broader facet, each recounted value's count over every record (facet-values.ts). */
type OverallCounts = Map<string, Map<string, number>>;

/**
 * How facets read: every statement of one request on one connection, within the request's
 * budget (PgPools.withBudget).
 */
type FacetReader = { readonly read: BudgetedRead };

/**
 * Exact counts by value with one GROUP BY over the facet values of the rows the search
 * matches, every facet at once: each matching row is read once, not once per facet. A
 * record holds a value's group once (facetValuesOf), so a count of rows is a count of
 * records, and the groups are hashed, not sorted. A facet with a selection of its own is
 * counted over the search without it, in a GROUP BY of its own. Values of a broader
 * (phrase) facet are then recounted by their phrase.
 */
async function facetCounts(
  pools: FacetReader,
  deployment: Deployment,
  criteria: Criteria,
  requests: readonly FacetRequest[],
  overallCounts: OverallCounts,
): Promise<FacetsResult> {
  const facets = requests.map((request) => deployment.facets.find((candidate) => candidate.name === request.name)!);
  const bases = facets.map((facet) => withoutSelection(criteria, facet.name));
  const grouped = new Map<Criteria, Promise<{ facet: string; value: string; count: number }[]>>();
  bases.forEach((base) => {
    if (grouped.has(base)) return;
    const { params, condition } = compileSearch(deployment, base);
    const counted = facets.filter((_, i) => bases[i] === base);
    const requested = params.add(counted.map(({ name }) => name));
    const caseless = params.add(counted.filter(isCaseless).map(({ name }) => name));
    const name = `split_part(f, ':', 1)`;
    const value = `substr(f, strpos(f, ':') + 1)`;
    // Counted by stored value first (a hash of plain strings), then by group.
    const query = pools.read<{ facet: string; value: string; count: number }>({
      text:
        `SELECT ${name} AS facet, min(${value}) AS value, sum(n)::int AS count ` +
        `FROM (SELECT f, count(*) AS n FROM ${pgTable(deployment)} CROSS JOIN LATERAL unnest(facets) AS f ${condition} GROUP BY f) AS counted ` +
        `WHERE ${name} = ANY(${requested}::text[]) GROUP BY ${name}, CASE WHEN ${name} = ANY(${caseless}::text[]) THEN lower(${value}) ELSE ${value} END`,
      values: params.values,
    });
    const rows = query.then((result) => result.rows);
    // Awaited below, unless a count fails first (past the budget every later statement does).
    rows.catch(() => undefined);
    grouped.set(base, rows);
  });
  const countOf = async (search: Criteria) => (await pools.read<{ n: number }>(compileSearch(deployment, search).count)).rows[0]!.n;
  // Awaited together: a count that fails while another is awaited would be a rejection no
  // one handles, and Node ends the process on one.
  const totals = new Map(await Promise.all([...new Set([criteria, ...bases])].map(async (base) => [base, await countOf(base)] as const)));
  const rowsOf = new Map(await Promise.all([...grouped].map(async ([base, rows]) => [base, await rows] as const)));
  const counts = await Promise.all(
    requests.map(async (request, i) => {
      const facet = facets[i]!;
      const base = bases[i]!;
      const held = rowsOf
        .get(base)!
        .filter((row) => row.facet === facet.name)
        .map(({ value, count }) => ({ value, count }));
      const overallKey = `${deployment.key}\u0000${facet.name}`;
      const overall = overallCounts.get(overallKey) ?? new Map<string, number>();
      overallCounts.set(overallKey, overall);
      const { distinct, values } = !kindOf(facet).broader
        ? pageOfValues(held, request)
        : await runPlanAsync(
            broaderPage(held, request, totals.get(base)!, (value) => overall.get(value)),
            (recount) => recountValues(pools, deployment, base, facet, recount, overall),
          );
      const selection = selectionOf(criteria, facet.name);
      const countsOf = (chosen: FacetSelection['anyOf'] = []) =>
        Promise.all(chosen.map(async ({ value, selector }) => ({ value, count: await countOf(withSelector(base, selector)) })));
      const [selected, excluded] = await Promise.all([countsOf(selection?.anyOf), countsOf(selection?.noneOf)]);
      return { name: facet.name, distinct, values, selected, excluded };
    }),
  );
  return { total: totals.get(criteria)!, facets: counts };
}

/**
 * Broader values' counts in the search and over every record, in one statement: each
 * value's phrase is looked up in the whole-record index, checked in its parameter's
 * columns, and its rows counted twice, once filtered by the search.
 */
async function recountValues(
  pools: FacetReader,
  deployment: Deployment,
  base: Criteria,
  facet: FacetDef,
  values: readonly string[],
  overall: Map<string, number>,
) {
  const selectors = values.map((value) => phraseSelector(deployment, facet, value)?.text[0]);
  const columns = selectors.find((selector) => selector !== undefined)?.columns;
  if (!columns) return values.map(() => ({ count: 0, overall: 0 }));
  const params = new Params();
  const search = searchConditions(deployment, base, params);
  const queries = params.add(selectors.map((selector) => (selector ? toTsquery(selector.query, wordsOnly) : null)));
  const phrase = `to_tsquery('${textConfig}', q.query)`;
  const result = await pools.read<{ i: number; n: number; overall: number }>({
    text:
      `SELECT q.i::int AS i, count(r.id) FILTER (WHERE ${search.length ? search.join(' AND ') : 'true'})::int AS n, count(r.id)::int AS overall ` +
      `FROM unnest(${queries}::text[]) WITH ORDINALITY AS q(query, i) ` +
      `LEFT JOIN ${pgTable(deployment)} AS r ON q.query IS NOT NULL AND tsv @@ ${phrase} AND ${textVector(columns)} @@ ${phrase} GROUP BY q.i`,
    values: params.values,
  });
  const counts = new Map(result.rows.map((row) => [row.i, row]));
  return values.map((value, i) => {
    const { n, overall: everywhere } = counts.get(i + 1) ?? { n: 0, overall: 0 };
    overall.set(value, everywhere);
    return { count: n, overall: everywhere };
  });
}

export interface PgWriter {
  /** Inserts or replaces (by repo_id) records in one transaction on the primary. */
  put(key: DeploymentKey, records: Iterable<StoredRecord>): Promise<number>;
  count(key: DeploymentKey): Promise<number>;
  close(): Promise<void>;
}

/** Rows per INSERT: one statement carries a batch as arrays, so a bulk load is not one round trip per record. */
const batchSize = 500;

function upsertSql(deployment: Deployment): string {
  const tsvs = searchColumns.map(tsvColumn);
  const ordered = searchModel(deployment).ordered.map(({ column }) => column);
  // Parameters, one array each: repo_id, the model's sort and date columns, doc, fulltext, keys and facets (as JSON), then one per search column.
  const stored = ['repo_id', ...ordered, 'doc', 'fulltext'];
  const arrays = [...stored, 'keys', 'facets', ...searchColumns.map((c) => `text_${c}`)];
  const vectors = searchColumns.map(
    (column) => `setweight(to_tsvector('${textConfig}', r.text_${column}), '${columnWeightClass[column]}')`,
  );
  return `
    INSERT INTO ${pgTable(deployment)} (${stored.join(', ')}, keys, facets, ${tsvs.join(', ')}, tsv)
    SELECT ${stored.map((column) => `r.${column}`).join(', ')},
      ARRAY(SELECT jsonb_array_elements_text(r.keys::jsonb)), ARRAY(SELECT jsonb_array_elements_text(r.facets::jsonb)),
      ${tsvs.map((_, i) => `v.v${i}`).join(', ')}, ${tsvs.map((_, i) => `v.v${i}`).join(' || ')}
    FROM unnest(${arrays.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS r(${arrays.join(', ')})
    CROSS JOIN LATERAL (SELECT ${vectors.map((vector, i) => `${vector} AS v${i}`).join(', ')}) AS v
    ON CONFLICT (repo_id) DO UPDATE SET
      ${[...stored.slice(1), 'keys', 'facets'].map((name) => `${name} = excluded.${name}`).join(', ')},
      ${tsvs.map((name) => `${name} = excluded.${name}`).join(', ')}, tsv = excluded.tsv`;
}

/** One batch as the upsert's column arrays; a repo_id repeated within the batch keeps its last record. */
function batchColumns(deployment: Deployment, batch: readonly StoredRecord[]): unknown[][] {
  const last = new Map(batch.map((stored) => [stored.record.repo_id, stored]));
  const model = searchModel(deployment);
  const columns: unknown[][] = Array.from({ length: 5 + model.ordered.length + searchColumns.length }, () => []);
  for (const stored of last.values()) {
    const { record } = stored;
    const text = textColumns(deployment, stored);
    const keys = keysOf(deployment, stored);
    const sortKeys = sortKeysOf(model, record);
    const row = [
      nulFree(record.repo_id),
      ...sortKeys,
      JSON.stringify(record),
      stored.fulltext === undefined ? null : wordsOnly(stored.fulltext),
      JSON.stringify(keys.map(([name, value]) => nulFree(keyElement(name, value)))),
      JSON.stringify(facetValuesOf(deployment, keys, facetRowsOf(deployment, stored), sortKeys).map(nulFree)),
      ...searchColumns.map((column) => wordsOnly(text[column])),
    ];
    row.forEach((value, i) => columns[i]!.push(value));
  }
  return columns;
}

/** Opens the primary for writing, creating the schema when it is missing. */
export async function openPgWriter(storeUrl: string): Promise<PgWriter> {
  const { primary } = parseStoreUrl(storeUrl);
  const pools = openPools({ primary, replicas: [] }, { size: 2 });
  const client = await pools.primary.connect();
  // A primary lost mid-write fails the statement under way; the client's own report of it
  // would otherwise be an unhandled error that ends the process with a stack.
  client.on('error', () => undefined);
  try {
    const version = await client
      .query<{ value: string }>(`SELECT value FROM meta WHERE key = 'schema'`)
      .catch(() => ({ rows: [] as { value: string }[] }));
    if (version.rows[0] && version.rows[0].value !== pgSchemaVersion()) {
      throw new Error(
        `${primary} has store schema ${version.rows[0].value}; this version needs ${pgSchemaVersion()}. Create a new database.`,
      );
    }
    await client.query(setupSql);
    for (const deployment of deployments) await client.query(createTableSql(deployment));
    await client.query(`INSERT INTO meta (key, value) VALUES ('schema', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [
      pgSchemaVersion(),
    ]);
  } catch (error) {
    client.release();
    await pools.close();
    throw error;
  }
  const upserts = new Map(deployments.map((deployment) => [deployment.key, upsertSql(deployment)]));

  async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  return {
    put(key, records) {
      const deployment = deploymentByKey(key)!;
      return inTransaction(async (tx) => {
        let written = 0;
        let batch: StoredRecord[] = [];
        const flush = async () => {
          if (batch.length === 0) return;
          await tx.query({ name: `upsert_${key}`, text: upserts.get(key)!, values: batchColumns(deployment, batch) });
          written += batch.length;
          batch = [];
        };
        for (const stored of records) {
          batch.push(stored);
          if (batch.length >= batchSize) await flush();
        }
        await flush();
        await tx.query(`INSERT INTO meta (key, value) VALUES ('revision', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [
          randomUUID(),
        ]);
        return written;
      });
    },
    async count(key) {
      const result = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${pgTable(deploymentByKey(key)!)}`);
      return result.rows[0]!.n;
    },
    async close() {
      client.release(true);
      await pools.close();
    },
  };
}
