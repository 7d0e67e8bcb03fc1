import { storeColumn } from '../../../deployments/search-model';
import type { IdSet } from '../../engine/id-set';
import type { Ranked } from '../engine';
import type { Criteria } from '../types';
import type { DeploymentState } from './deployment-state';
import type { ReadConnection } from './read-connection';
import { orderIndex } from './schema';

/** What a search in date or title order asks: the column, the direction and how many rows. */
export interface ColumnOrder {
  readonly sort: string;
  readonly descending: boolean;
  readonly need: number;
}

/**
 * Records in date or title order. `set` holds the records that match (undefined: all).
 * A sparse set is sorted outright; otherwise the sort index is walked and rows outside
 * the set are skipped, which touches about need × N / total index entries.
 */
export function rankByColumn(
  connection: ReadConnection,
  state: DeploymentState,
  { sort, descending, need }: ColumnOrder,
  set: IdSet | undefined,
  criteria: Criteria,
): Ranked {
  const t = state.tables;
  const column = storeColumn(state.deployment, sort);
  const dir = descending ? 'DESC' : 'ASC';
  const total = set ? set.count() : state.total();
  const limit = Math.min(need, total);
  if (limit === 0) return { total, ids: new Int32Array(0), complete: true };

  if (set && need * state.capacity > 10 * total * total) {
    // Few matches: sort them (empty dates last in either order, as in the walk below).
    const ids = connection
      .prepare(
        `SELECT id FROM ${t.records} WHERE id IN (SELECT value FROM json_each(?)) ORDER BY ${column} IS NULL, ${column} ${dir}, repo_id ${dir} LIMIT ?`,
      )
      .pluck()
      .all(JSON.stringify(set.toArray()), limit) as number[];
    return { total, ids: Int32Array.from(ids), complete: ids.length >= total };
  }

  const { range, params } = columnBounds(state, column, criteria);
  const setCheck = set ? ['keep(id)'] : [];
  const index = orderIndex(state.deployment, column);
  const where = (extra: string) => [extra, ...range, ...setCheck].join(' AND ');
  const ids = connection.keeping(set, () => {
    // SQLite puts NULL first in ascending order; records without a date go last in both.
    const dated = connection
      .prepare(
        `SELECT id FROM ${t.records} INDEXED BY ${index} WHERE ${where(`${column} IS NOT NULL`)} ORDER BY ${column} ${dir}, repo_id ${dir} LIMIT ?`,
      )
      .pluck()
      .all(...params, limit) as number[];
    if (dated.length >= limit || range.length > 0) return dated;
    const undated = connection
      .prepare(`SELECT id FROM ${t.records} INDEXED BY ${index} WHERE ${where(`${column} IS NULL`)} ORDER BY repo_id ${dir} LIMIT ?`)
      .pluck()
      .all(limit - dated.length) as number[];
    return dated.concat(undated);
  });
  return { total, ids: Int32Array.from(ids), complete: ids.length >= total };
}

/** Bounds the criteria put on the sort column itself, which narrow the walk; the set check covers the rest. */
function columnBounds(state: DeploymentState, column: string, criteria: Criteria) {
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
  return { range, params };
}
