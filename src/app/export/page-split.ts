import { InvalidResponseError } from '../../client/errors';

/**
 * Pages of the server's XML and BibTeX split into records, so that pages can be joined into
 * one document and a download can stop at exactly its cap. Record texts are kept byte for
 * byte: the joined file is what the server would send for all the records at once.
 */

export interface XmlPage {
  /** Everything up to and including the root start tag (`<?xml …?>\n<records>`). */
  readonly prologue: string;
  /** Each `<record>` element as the server wrote it. */
  readonly records: string[];
}

export const defaultXmlPrologue = '<?xml version="1.0" encoding="UTF-8"?>\n<records>';

export function splitXmlPage(text: string, url: string): XmlPage {
  const root = /<records(\s[^>]*)?(\/)?>/.exec(text);
  if (!root) throw new InvalidResponseError(url, 'expected an XML document with a records root element.');
  const start = root.index + root[0].length;
  const selfClosing = root[2] === '/';
  const prologue = selfClosing ? `${text.slice(0, root.index)}<records${root[1] ?? ''}>` : text.slice(0, start);
  if (selfClosing) return { prologue, records: [] };
  const end = text.lastIndexOf('</records>');
  if (end < start) throw new InvalidResponseError(url, 'the XML document ends before its records element closes.');
  const body = text.slice(start, end);
  // Record content is escaped text, so `</record>` only ever closes a record.
  const records = body.match(/<record(?:\s[^>]*)?\/>|<record(?:\s[^>]*)?>[\s\S]*?<\/record>/g) ?? [];
  return { prologue, records };
}

/**
 * BibTeX entries start with `@type{` at the beginning of a line; the server's values are
 * single-line, so nothing inside an entry does.
 */
export function splitBibtexPage(text: string): string[] {
  return text
    .split(/^(?=@[A-Za-z]+\s*[{(])/m)
    .map((entry) => entry.replace(/\s+$/, ''))
    .filter((entry) => entry.startsWith('@'))
    .map((entry) => `${entry}\n`);
}
