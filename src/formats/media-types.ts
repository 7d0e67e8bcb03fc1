/** The three response formats and the media types that select them. */

export type ResponseFormat = 'json' | 'xml' | 'bibtex';

export const contentTypes: Record<ResponseFormat, string> = {
  json: 'application/json',
  xml: 'application/xml',
  bibtex: 'application/x-bibtex',
};

/** Offered types in preference order; the first wins ties. */
const offers: readonly [string, ResponseFormat][] = [
  ['application/json', 'json'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
  ['application/x-bibtex', 'bibtex'],
  ['text/x-bibtex', 'bibtex'],
];

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.split(';');
    const [type, subtype] = (range ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((piece) => piece.trim());
      if (name?.toLowerCase() === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 1;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** q of the most specific range matching a type, or undefined when none matches. */
function qualityOf(mediaType: string, ranges: readonly MediaRange[]): number | undefined {
  const [type, subtype] = mediaType.split('/');
  let best: { specificity: number; q: number } | undefined;
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity >= 0 && (!best || specificity > best.specificity)) best = { specificity, q: range.q };
  }
  return best?.q;
}

/**
 * Chooses the response format from an Accept header (RFC 9110, with q-values).
 * No header, a wildcard, or only unsupported types give JSON, the spec's default.
 */
export function negotiateFormat(accept: string | undefined | null): ResponseFormat {
  if (!accept?.trim()) return 'json';
  const ranges = parseAccept(accept);
  let chosen: { format: ResponseFormat; q: number } | undefined;
  for (const [mediaType, format] of offers) {
    const q = qualityOf(mediaType, ranges);
    if (q !== undefined && q > 0 && (!chosen || q > chosen.q)) chosen = { format, q };
  }
  return chosen?.format ?? 'json';
}
