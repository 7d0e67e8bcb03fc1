import Database from 'better-sqlite3';
import { deploymentByKey, type ApiRecord } from '../../deployments/registry';
import { searchColumns, type Deployment, type DeploymentKey } from '../../deployments/schema';
import { and, compileQuery, drivingMatch, type Predicate } from './predicate';
import { columnWeights, schemaVersion, tablesOf } from './schema';
import type { Criteria, RecordStore, SearchResult } from './types';

/**
 * The read side of the SQLite store. Every statement is prepared with placeholders; the
 * SQL text is assembled only from table and column names of the deployment table, and
 * statements are cached by their text, so each query shape is compiled once.
 */

interface Sql {
  readonly where: string[];
  readonly params: unknown[];
}

const sortColumns = { publication_date: 'r.publication_date', entry_date: 'r.entry_date', title: 'r.title_key' } as const;

export function openStore(path: string): RecordStore {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  let revision: string;
  try {
    const schema = db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'schema'`).get()?.value;
    if (schema !== schemaVersion) throw new Error(`store schema ${schema ?? 'missing'}, expected ${schemaVersion}`);
    revision = db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'revision'`).get()?.value ?? 'empty';
  } catch (error) {
    db.close();
    throw new Error(`${path} is not a Records Explorer database (${(error as Error).message}).`);
  }
  const cache = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };

  function predicateSql(deployment: Deployment, predicate: Predicate, sql: Sql): string {
    const t = tablesOf(deployment);
    switch (predicate.kind) {
      case 'match':
        sql.params.push(predicate.expr);
        return `r.id IN (SELECT rowid FROM ${t.fts} WHERE ${t.fts} MATCH ?)`;
      case 'not':
        return `NOT (${predicateSql(deployment, predicate.child, sql)})`;
      case 'and':
      case 'or':
        return `(${predicate.children.map((child) => predicateSql(deployment, child, sql)).join(predicate.kind === 'and' ? ' AND ' : ' OR ')})`;
    }
  }

  function search(deployment: Deployment, criteria: Criteria): SearchResult {
    const t = tablesOf(deployment);
    const textPredicates = criteria.text
      .map(({ columns, query }) => compileQuery(query, columns))
      .filter((p): p is Predicate => Boolean(p));
    const { match, rest } = drivingMatch(and(textPredicates));
    const sql: Sql = { where: [], params: [] };
    if (match) {
      sql.where.push(`${t.fts} MATCH ?`);
      sql.params.push(match);
    }
    for (const predicate of rest) sql.where.push(predicateSql(deployment, predicate, sql));
    for (const { key, value } of criteria.exact) {
      sql.where.push(`r.id IN (SELECT rec FROM ${t.keys} WHERE name = ? AND value = ?)`);
      sql.params.push(key, value);
    }
    if (criteria.repoId !== undefined) {
      sql.where.push('r.repo_id = ?');
      sql.params.push(criteria.repoId);
    }
    for (const { field, from, to } of criteria.dates) {
      if (from !== undefined) {
        sql.where.push(`${sortColumns[field]} >= ?`);
        sql.params.push(from);
      }
      if (to !== undefined) {
        sql.where.push(`${sortColumns[field]} < ?`);
        sql.params.push(to);
      }
    }
    const from = match ? `${t.fts} JOIN ${t.records} r ON r.id = ${t.fts}.rowid` : `${t.records} r`;
    const where = sql.where.length ? `WHERE ${sql.where.join(' AND ')}` : '';
    const total = (prepare(`SELECT count(*) AS n FROM ${from} ${where}`).get(...sql.params) as { n: number }).n;
    if (criteria.offset >= total) return { total, records: [] };

    const direction = criteria.order === 'asc' ? 'ASC' : 'DESC';
    let orderBy: string;
    if (criteria.sort === 'relevance' && match) {
      const weights = searchColumns.map((column) => columnWeights[column]).join(', ');
      // bm25 is lower for better matches, so "desc" (best first) sorts it ascending.
      orderBy = `bm25(${t.fts}, ${weights}) ${criteria.order === 'asc' ? 'DESC' : 'ASC'}, r.repo_id ASC`;
    } else {
      const column = criteria.sort === 'relevance' ? sortColumns.publication_date : sortColumns[criteria.sort];
      orderBy = `${column} IS NULL, ${column} ${direction}, r.repo_id ${direction}`;
    }
    const rows = prepare(`SELECT r.doc AS doc FROM ${from} ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`).all(
      ...sql.params,
      criteria.limit,
      criteria.offset,
    ) as { doc: string }[];
    return { total, records: rows.map((row) => JSON.parse(row.doc) as ApiRecord) };
  }

  const resolve = (key: DeploymentKey) => deploymentByKey(key)!;

  return {
    revision,
    async search(key, criteria) {
      return search(resolve(key), criteria);
    },
    async get(key, repoId) {
      const t = tablesOf(resolve(key));
      const row = prepare(`SELECT doc FROM ${t.records} WHERE repo_id = ?`).get(repoId) as { doc: string } | undefined;
      return row ? (JSON.parse(row.doc) as ApiRecord) : undefined;
    },
    async fulltext(key, repoId) {
      const t = tablesOf(resolve(key));
      const row = prepare(
        `SELECT x.fulltext AS fulltext FROM ${t.records} r JOIN ${t.text} x ON x.id = r.id WHERE r.repo_id = ?`,
      ).get(repoId) as { fulltext: string } | undefined;
      return row?.fulltext || undefined;
    },
    async count(key) {
      const t = tablesOf(resolve(key));
      return (prepare(`SELECT count(*) AS n FROM ${t.records}`).get() as { n: number }).n;
    },
    async close() {
      db.close();
    },
  };
}

// The write side lives in its own module; callers find both here.
export { openStoreWriter } from './sqlite-writer';
