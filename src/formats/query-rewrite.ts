/**
 * A query with some of its bare words rewritten (quoted, corrected), the rest of it as
 * typed: one pass, reading words as the query language does (query-tokens.ts): text in
 * quotes is left alone, a leading `-` stays with its word.
 */
export function rewriteWords(text: string, rewrite: (word: string) => string | undefined): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"') {
      const end = text.indexOf('"', i + 1);
      const stop = end === -1 ? text.length : end + 1;
      out += text.slice(i, stop);
      i = stop;
    } else if (/[\s()]/.test(char)) {
      out += char;
      i++;
    } else {
      let end = i;
      while (end < text.length && !/[\s"()]/.test(text[end]!)) end++;
      const raw = text.slice(i, end);
      const sign = raw.startsWith('-') && raw.length > 1 ? '-' : '';
      const replaced = rewrite(raw.slice(sign.length));
      out += replaced === undefined ? raw : sign + replaced;
      i = end;
    }
  }
  return out;
}
