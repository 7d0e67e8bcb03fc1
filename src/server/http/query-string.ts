/**
 * Strict query-string decoding: unlike URLSearchParams, malformed percent-encoding and
 * invalid UTF-8 are reported instead of being silently replaced.
 */
export type QueryPair = readonly [name: string, value: string];

export class MalformedQueryError extends Error {}

function decode(component: string): string {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    throw new MalformedQueryError(`The query string has malformed percent-encoding near '${component.slice(0, 40)}'.`);
  }
}

export function parseQueryString(search: string): QueryPair[] {
  const pairs: QueryPair[] = [];
  for (const part of search.replace(/^\?/, '').split('&')) {
    if (!part) continue;
    const equals = part.indexOf('=');
    const name = decode(equals === -1 ? part : part.slice(0, equals));
    const value = equals === -1 ? '' : decode(part.slice(equals + 1));
    pairs.push([name, value]);
  }
  return pairs;
}

export function formatQueryString(pairs: readonly QueryPair[]): string {
  return pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
}
