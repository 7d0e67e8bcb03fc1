import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import {
  formatGeneratedIds,
  formatWorkVersions,
  generatedRecordsHeader,
  totalWorksHeader,
  workVersionsHeader,
} from '../../formats/extension-headers';
import { groupByKeys, representativeFirst, workKeys } from '../../formats/work-key';
import { etagOf, packChunksInTurns } from '../render/body-bytes';
import { recordParts, type PageRendering } from '../render/page-body';
import type { Criteria, RecordStore, RenderedPage } from '../store/types';
import { bulkTurn } from './flow-control';

/**
 * `group=work` (docs/extensions.md): a page lists each work once, its most complete record
 * first and its other versions after it. Works are formed within a window of whole pages
 * (about `groupingWindow` results, at least one page) aligned on multiples of its size, so a
 * page costs one window's records however deep it is, and every record of the result is
 * listed on exactly one page: under the work of the first of its versions in the window.
 * Versions further apart than the window are not gathered (docs/decisions.md).
 */

/** Results per grouping window: whole pages of the search, at least one. */
export const groupingWindow = 100;

/** The window of ranks a page's works are formed in: `pages` whole pages from `start`. */
export function windowOf(page: number, rows: number): { readonly start: number; readonly size: number } {
  const pages = Math.max(1, Math.floor(groupingWindow / rows));
  return { start: Math.floor((page - 1) / pages) * pages * rows, size: pages * rows };
}

/**
 * The works of one page, from the window's records in rank order: the works whose first
 * record in the window stands at `from` to `from + rows - 1`, each with its most complete
 * record first.
 */
export function pageWorks(deployment: Deployment, windowRecords: readonly ApiRecord[], from: number, rows: number): ApiRecord[][] {
  const ranked = windowRecords.map((record, rank) => ({ record, rank }));
  return groupByKeys(ranked, ({ record }) => workKeys(deployment, record))
    .filter((work) => work[0]!.rank >= from && work[0]!.rank < from + rows)
    .map((work) =>
      representativeFirst(
        deployment,
        work.map(({ record }) => record),
      ),
    );
}

/** How many works a list of records holds. */
export const countWorks = (deployment: Deployment, records: readonly ApiRecord[]) =>
  groupByKeys(records, (record) => workKeys(deployment, record)).length;

export interface GroupedPage extends RenderedPage {
  readonly headers: Readonly<Record<string, string>>;
}

/** A page of the search as works with their versions, rendered in this thread (in turns for long bodies). */
export async function groupedPage(
  store: RecordStore,
  deployment: Deployment,
  criteria: Criteria,
  page: number,
  rows: number,
  rendering: PageRendering,
): Promise<GroupedPage> {
  const window = windowOf(page, rows);
  const result = await store.search(deployment.key, { ...criteria, offset: window.start, limit: window.size });
  const records = result.json ? result.json.map((doc) => JSON.parse(doc) as ApiRecord) : result.records;
  const works = pageWorks(deployment, records, criteria.offset - window.start, rows);
  const listed = works.flat();
  const turn = () => bulkTurn(listed.length);
  await turn();
  const marked = new Set(result.generated);
  const generated = listed.map((record) => record.repo_id).filter((id) => marked.has(id));
  const body = await packChunksInTurns(recordParts(deployment, listed, rendering), turn);
  // Every work is counted only where the window holds the whole result.
  const whole = window.start === 0 && result.total <= window.size;
  return {
    total: result.total,
    body,
    etag: etagOf(body, store.revision),
    generated,
    headers: {
      [workVersionsHeader]: formatWorkVersions(works.map((work) => work.length)),
      ...(whole ? { [totalWorksHeader]: String(countWorks(deployment, records)) } : {}),
      ...(generated.length ? { [generatedRecordsHeader]: formatGeneratedIds(generated) } : {}),
    },
  };
}
