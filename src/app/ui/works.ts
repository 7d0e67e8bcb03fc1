import type { RecordPage } from '../../client/records';
import type { ApiRecord } from '../../deployments/registry';

/** One row of a result list: a work's leading record and its other versions (none where the page is ungrouped). */
export interface WorkRow {
  readonly record: ApiRecord;
  readonly versions: readonly ApiRecord[];
}

/**
 * A page's rows: each work once, its most complete record leading, where the server grouped
 * the page (`works`, the X-Work-Versions extension); otherwise each record a row of its own.
 */
export function workRows(page: Pick<RecordPage, 'records' | 'works'>): WorkRow[] {
  if (!page.works) return page.records.map((record) => ({ record, versions: [] }));
  const rows: WorkRow[] = [];
  let at = 0;
  for (const count of page.works) {
    rows.push({ record: page.records[at]!, versions: page.records.slice(at + 1, at + count) });
    at += count;
  }
  return rows;
}

const plural = (count: number, one: string, many: string) => `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

/**
 * What a result count counts: records, and works where the server grouped them ("436
 * records · 431 works"); a grouped result whose works nobody counted says how it is listed.
 */
export function recordsAndWorks(total: number, page: Pick<RecordPage, 'works' | 'totalWorks'>): string | undefined {
  if (!page.works) return undefined;
  if (page.totalWorks !== undefined) return `${plural(total, 'record', 'records')} · ${plural(page.totalWorks, 'work', 'works')}`;
  return `${plural(total, 'record', 'records')}, versions grouped`;
}
