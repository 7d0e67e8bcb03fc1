/**
 * Request URLs. Only the first page of a search is ever built here; later pages come from
 * the server's Link header, so a server free to shape its paging URLs is followed as is.
 */

export type ParamEntries = Iterable<readonly [string, string]>;

/**
 * A query string from name/value pairs, in the given order, without empty values (the
 * spec treats them as absent). Spaces become %20, not `+`, so a server that reads the
 * query string literally still sees the user's text.
 */
export function queryString(params: ParamEntries): string {
  const parts: string[] = [];
  for (const [name, value] of params) {
    if (value.trim() === '') continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

function trimSlash(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

export function searchUrl(baseUrl: string, params: ParamEntries): string {
  return `${trimSlash(baseUrl)}/records${queryString(params)}`;
}

export function recordUrl(baseUrl: string, repoId: string): string {
  return `${trimSlash(baseUrl)}/records/${encodeURIComponent(repoId)}`;
}

/** A positive integer query parameter of a URL (`page`, `rows`), or undefined. */
export function integerParam(url: string, name: string): number | undefined {
  let value: string | null;
  try {
    value = new URL(url).searchParams.get(name);
  } catch {
    return undefined;
  }
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
}
