import type { RecordPage } from '../../client/records';
import { integerParam, queryString } from '../../client/urls';
import type { PageRel } from '../../formats/link-header';
import { withValues, type Entries } from '../navigation/query-params';

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
  /** A page number beyond the last one the server links (`page=999` of 36): nothing to show here. */
  readonly pastLast: boolean;
}

export function pagingOf(page: Pick<RecordPage, 'url' | 'links'>): Paging {
  const links: Partial<Record<PageRel, string>> = {};
  for (const rel of pageRels) {
    const href = page.links[rel];
    if (href) links[rel] = href;
  }
  if (Object.keys(links).length === 0) return { current: 1, last: 1, links, atStart: true, atEnd: true, pastLast: false };
  const pageNumber = integerParam(page.url, 'page');
  const lastNumber = links.last ? integerParam(links.last, 'page') : undefined;
  const current = pageNumber ?? 1;
  const last = lastNumber ?? current;
  // Page numbers decide where the URLs carry them (a server may still link "prev" from
  // page 1 to itself); otherwise the Link header does: no rel="prev", nothing comes before.
  const atStart = pageNumber !== undefined ? pageNumber === 1 : !links.prev;
  const atEnd = pageNumber !== undefined && lastNumber !== undefined ? pageNumber === lastNumber : !links.next;
  const pastLast = lastNumber !== undefined && current > lastNumber;
  return { current, last: pastLast ? last : Math.max(last, current), links, atStart, atEnd, pastLast };
}

/**
 * The API URL of page `n`, made from a URL the server linked (rel=last, else another) by
 * changing only its `page`: so every other parameter stays as the server wrote it. None
 * where the server's links do not page by `page`, or `n` is outside 1…last.
 */
export function pageUrl(paging: Paging, n: number): string | undefined {
  if (!Number.isSafeInteger(n) || n < 1 || n > paging.last) return undefined;
  const template = (['last', 'first', 'next', 'prev'] as const)
    .map((rel) => paging.links[rel])
    .find((href) => href && integerParam(href, 'page') !== undefined);
  if (!template) return undefined;
  const url = new URL(template);
  url.searchParams.set('page', String(n));
  return url.href;
}

/**
 * The page numbers to offer: the first, the last, and a few around the current one, with
 * `'gap'` where numbers are left out (1 … 4 5 6 … 36).
 */
export function pageNumbers(current: number, last: number, around = 2): (number | 'gap')[] {
  const shown = new Set<number>([1, last]);
  for (let n = current - around; n <= current + around; n++) if (n >= 1 && n <= last) shown.add(n);
  const sorted = [...shown].sort((a, b) => a - b);
  const result: (number | 'gap')[] = [];
  for (const n of sorted) {
    const previous = result[result.length - 1];
    // One missing number is shown rather than a gap that hides just it.
    if (typeof previous === 'number' && n - previous === 2) result.push(previous + 1);
    else if (typeof previous === 'number' && n - previous > 2) result.push('gap');
    result.push(n);
  }
  return result;
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
