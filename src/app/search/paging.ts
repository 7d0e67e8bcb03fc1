import type { RecordPage } from '../../client/records';
import { integerParam, queryString } from '../../client/urls';
import type { PageRel } from '../../formats/link-header';
import { withValues, type Entries } from './query-params';

/**
 * Paging strictly from the Link header: the app never computes a page URL. Page numbers
 * for "page N of M" are read from the URLs the server gave (the request's and rel=last's).
 */

export const pageRels = ['first', 'prev', 'next', 'last'] as const satisfies readonly PageRel[];

export interface Paging {
  readonly current: number;
  readonly last: number;
  /** rel → the API URL the server linked. */
  readonly links: Partial<Record<PageRel, string>>;
  /** On the first page: "First" and "Previous" would lead back here, so they are not offered. */
  readonly atStart: boolean;
  /** On the last page: likewise "Next" and "Last". */
  readonly atEnd: boolean;
}

export function pagingOf(page: Pick<RecordPage, 'url' | 'links'>): Paging {
  const links: Partial<Record<PageRel, string>> = {};
  for (const rel of pageRels) {
    const href = page.links[rel];
    if (href) links[rel] = href;
  }
  if (Object.keys(links).length === 0) return { current: 1, last: 1, links, atStart: true, atEnd: true };
  const pageNumber = integerParam(page.url, 'page');
  const lastNumber = links.last ? integerParam(links.last, 'page') : undefined;
  const current = pageNumber ?? 1;
  const last = lastNumber ?? current;
  // Page numbers decide where the URLs carry them (a server may still link "prev" from
  // page 1 to itself); otherwise the Link header does: no rel="prev", nothing comes before.
  const atStart = pageNumber !== undefined ? pageNumber === 1 : !links.prev;
  const atEnd = pageNumber !== undefined && lastNumber !== undefined ? pageNumber === lastNumber : !links.next;
  return { current, last: Math.max(last, current), links, atStart, atEnd };
}

/**
 * The app's query string for a linked page: the current criteria with `page` and `rows`
 * as the link's own query string says.
 */
export function appEntriesForLink(current: Entries, linkUrl: string): [string, string][] {
  let params: URLSearchParams;
  try {
    params = new URL(linkUrl).searchParams;
  } catch {
    return [...current].map(([name, value]) => [name, value]);
  }
  return withValues(current, {
    page: params.get('page') ?? undefined,
    rows: params.get('rows') ?? undefined,
  });
}

/**
 * What stays the same while paging through one search: the criteria without `page` and
 * `rows`. The previous page stays on screen only while the identity is unchanged, so a new
 * search never shows the last search's results and count as if they were its own.
 */
export function searchIdentity(entries: Entries): string {
  return queryString(entries.filter(([name]) => name !== 'page' && name !== 'rows'));
}
