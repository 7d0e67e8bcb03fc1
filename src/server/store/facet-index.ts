import type Database from 'better-sqlite3';
import type { FacetDef } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import { decadeOf, facetKeyName, groupOf, hasFacetRows } from './facet-values';
import type { IdSet } from './id-set';
import { tablesOf } from './schema';
import type { FacetValueCount } from './types';

/**
 * A facet's values held in memory per connection as one sorted id list per value, read
 * once from the keys table (or the publication dates): counting a search's values is then
 * a pass over those lists against the search's id set, with no SQL per request.
 */
export interface FacetColumn {
  readonly values: readonly string[];
  readonly ids: readonly Int32Array[];
}

/** Ids of one value, appended to a typed array that grows by doubling (millions of rows, no boxed numbers). */
class IdList {
  ids = new Int32Array(16);
  length = 0;
  constructor(readonly shown: string) {}
  push(id: number) {
    if (this.length === this.ids.length) {
      const grown = new Int32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.length++] = id;
  }
  /** Sorted, each id once (a group that merged spellings may hold a record twice). */
  done(): Int32Array {
    const ids = this.ids.subarray(0, this.length).sort();
    let kept = 0;
    for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[i - 1]) ids[kept++] = ids[i]!;
    return ids.slice(0, kept);
  }
}

export function loadFacetColumn(db: Database.Database, deployment: Deployment, facet: FacetDef): FacetColumn {
  const t = tablesOf(deployment);
  const lists = new Map<string, IdList>();
  let last: { group: string; list: IdList } | undefined;
  const add = (group: string, shown: string, id: number) => {
    // Rows come in value order, so consecutive rows mostly share their list.
    if (last?.group !== group) {
      let list = lists.get(group);
      if (!list) lists.set(group, (list = new IdList(shown)));
      last = { group, list };
    }
    last.list.push(id);
  };
  if (facet.criterion.kind === 'date-range') {
    const rows = db.prepare(`SELECT substr(${facet.criterion.field}, 1, 4), id FROM ${t.records} WHERE ${facet.criterion.field} IS NOT NULL`).raw();
    const group = facet.criterion.unit === 'year' ? (year: string) => year : decadeOf;
    for (const [year, id] of rows.iterate() as Iterable<[string, number]>) {
      if (/^\d{4}$/.test(year)) add(group(year), group(year), id);
    }
  } else {
    const name = hasFacetRows(facet) ? facetKeyName(facet) : facet.key!;
    const group = groupOf(facet);
    const rows = db.prepare(`SELECT value, rec FROM ${t.keys} WHERE name = ?`).raw();
    for (const [value, id] of rows.iterate(name) as Iterable<[string, number]>) add(group(value), value, id);
  }
  const entries = [...lists.values()];
  return { values: entries.map((entry) => entry.shown), ids: entries.map((entry) => entry.done()) };
}

/** Each value's number of records in `matching` (every record when undefined). */
export function countValues(column: FacetColumn, matching: IdSet | undefined): FacetValueCount[] {
  return column.values.map((value, index) => {
    const ids = column.ids[index]!;
    if (!matching) return { value, count: ids.length };
    let count = 0;
    for (let i = 0; i < ids.length; i++) if (matching.has(ids[i]!)) count++;
    return { value, count };
  });
}
