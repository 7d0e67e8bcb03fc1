/**
 * Response headers the local server adds beyond the spec. The app reads them where a server
 * sends them and never needs them: an upstream server sends none.
 */

/** On `GET /records/{id}`: `generated` for a demo record made by the corpus generator. */
export const recordOriginHeader = 'X-Record-Origin';

/**
 * On `GET /records`: the identifiers of the page's generated demo records, percent-encoded
 * and separated by commas; absent when the page holds none.
 */
export const generatedRecordsHeader = 'X-Generated-Records';

export function formatGeneratedIds(ids: Iterable<string>): string {
  return [...ids].map(encodeURIComponent).join(',');
}

/** The header's identifiers; anything that does not decode is left out. */
export function parseGeneratedIds(header: string | null): Set<string> {
  const ids = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    try {
      const id = decodeURIComponent(part.trim());
      if (id) ids.add(id);
    } catch {
      // A malformed escape names no record.
    }
  }
  return ids;
}
