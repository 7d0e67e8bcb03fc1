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

/**
 * On `GET /records?group=work`: how many records each work of the page has, in the order of
 * the body (a work's most complete record first, then its other versions), as comma-separated
 * whole numbers; present (empty when the page holds no work) exactly when the page is grouped.
 */
export const workVersionsHeader = 'X-Work-Versions';

/** On `GET /records?group=work`: how many works the whole result holds, where the server counted them all. */
export const totalWorksHeader = 'X-Total-Works';

export function formatWorkVersions(counts: readonly number[]): string {
  return counts.join(',');
}

/**
 * The header's counts, or undefined when it is absent (a server that does not group) or
 * does not add up to the page's records (then the page is shown as records, ungrouped).
 */
export function parseWorkVersions(header: string | null, records: number): number[] | undefined {
  if (header === null) return undefined;
  const counts = header.trim() ? header.split(',').map(Number) : [];
  let sum = 0;
  for (const count of counts) sum += Number.isSafeInteger(count) && count > 0 ? count : NaN;
  return sum === records || counts.length + records === 0 ? counts : undefined;
}
