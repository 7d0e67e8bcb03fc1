/** Characters XML 1.0 cannot carry at all (controls, lone surrogates, U+FFFE/U+FFFF). */
const invalidXmlChars = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function stripInvalidXmlChars(text: string): string {
  return text.replace(invalidXmlChars, '');
}

const xmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Anything escapeXml might change: markup characters, controls, surrogates (lone ones are
 * invalid), U+FFFE/U+FFFF. Tested first without the u flag, which is several times faster
 * over long text that (as most does) needs nothing.
 */
const mayNeedEscaping = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Escapes text for XML element content and attribute values. */
export function escapeXml(text: string): string {
  if (!mayNeedEscaping.test(text)) return text;
  return stripInvalidXmlChars(text).replace(/[&<>"']/g, (char) => xmlEntities[char]!);
}

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => htmlEntities[char]!);
}

/** Lists and scalars of a record field as a list of strings (empty for null/undefined). */
export function valuesOf(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.filter((item) => item !== null && item !== undefined).map(String);
  return [String(value)];
}

/** A bare DOI from either stored form (`10.1/x`, `https://doi.org/10.1/x`, `doi:10.1/x`). */
export function bareDoi(doi: string): string {
  return doi
    .trim()
    .replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')
    .replace(/^doi:\s*/i, '');
}

/**
 * The resolver URL of a DOI written either way (bare or as a resolver URL), or undefined
 * when the value is not a DOI. Characters that mean something in a URL are escaped, so
 * the link always reaches the DOI as written.
 */
export function doiOf(value: string): { doi: string; url: string } | undefined {
  const doi = bareDoi(value);
  if (!/^10\.\d{4,9}\/\S+$/.test(doi)) return undefined;
  return { doi, url: `https://doi.org/${encodeURIComponent(doi).replace(/%2F/gi, '/')}` };
}

/** Only http(s) URLs may become links, in any output meant for people. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The raw text of the first `<name>…</name>` in `xml`, or undefined. Found with two
 * searches rather than a lazy regular expression, which would rescan the rest of the text
 * from every unclosed `<name>`.
 */
export function firstElementText(xml: string, name: string): string | undefined {
  const open = `<${name}>`;
  const start = xml.indexOf(open);
  if (start === -1) return undefined;
  const end = xml.indexOf(`</${name}>`, start + open.length);
  return end === -1 ? undefined : xml.slice(start + open.length, end);
}
