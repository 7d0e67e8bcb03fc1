import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { groupByKeys, representativeFirst, workKeys } from '../../formats/work-key';

/**
 * `group=work` (docs/extensions.md): a page lists each work once, its most complete record
 * first and its other versions after it. Works are formed within a window of whole pages
 * (about `groupingWindow` results, at least one page) aligned on multiples of its size, so a
 * page costs one window's records however deep it is, and every record of the result is
 * listed on exactly one page: under the work of the first of its versions in the window.
 * Versions further apart than the window are not gathered (docs/decisions.md).
 *
 * The grouping parses and compares a whole window's records, so it is done where the page
 * is rendered (a store worker for the pooled store), never on the server's main thread.
 */

/** Results per grouping window: whole pages of the search, at least one. */
export const groupingWindow = 100;

/** The window of ranks a page's works are formed in: `pages` whole pages from `start`. */
export function windowOf(page: number, rows: number): { readonly start: number; readonly size: number } {
  const pages = Math.max(1, Math.floor(groupingWindow / rows));
  return { start: Math.floor((page - 1) / pages) * pages * rows, size: pages * rows };
}

/** Which of a window's records a page of works lists: those of the works whose first record stands at `from` to `from + rows - 1`. */
export interface WorksRendering {
  readonly from: number;
  readonly rows: number;
}

/** What a page of works says beside its records. */
export interface PageWorks {
  /** Each listed work's number of versions, in the page's order. */
  readonly versions: readonly number[];
  /** The works the whole window holds (the whole result's, when the window holds it all). */
  readonly inWindow: number;
}

/**
 * The works of one page, from the window's records in rank order: the works whose first
 * record in the window stands at `from` to `from + rows - 1`, each with its most complete
 * record first; and how many works the window holds.
 */
export function pageWorks<T>(
  deployment: Deployment,
  window: readonly T[],
  recordOf: (item: T) => ApiRecord,
  { from, rows }: WorksRendering,
): { readonly works: T[][]; readonly inWindow: number } {
  const ranked = window.map((item, rank) => ({ item, record: recordOf(item), rank }));
  const groups = groupByKeys(ranked, ({ record }) => workKeys(deployment, record));
  const works = groups
    .filter((work) => work[0]!.rank >= from && work[0]!.rank < from + rows)
    .map((work) => {
      const first = representativeFirst(
        deployment,
        work.map(({ record }) => record),
      )[0];
      const best = work.find(({ record }) => record === first)!;
      return [best, ...work.filter((version) => version !== best)].map(({ item }) => item);
    });
  return { works, inWindow: groups.length };
}

/** A window's stored records (JSON text) as one page of works: the listed records and their repo_ids in the page's order, and what it says of them. */
export function worksOfDocs(
  deployment: Deployment,
  docs: readonly string[],
  works: WorksRendering,
): { readonly listed: string[]; readonly ids: string[]; readonly works: PageWorks } {
  const read = docs.map((doc) => ({ doc, record: JSON.parse(doc) as ApiRecord }));
  const found = pageWorks(deployment, read, ({ record }) => record, works);
  const listed = found.works.flat();
  return {
    listed: listed.map(({ doc }) => doc),
    ids: listed.map(({ record }) => record.repo_id),
    works: { versions: found.works.map((work) => work.length), inWindow: found.inWindow },
  };
}
