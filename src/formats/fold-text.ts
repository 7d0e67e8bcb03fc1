/**
 * How text folds for searching, in one place for both stores' indexes, their queries, the
 * facet value search and the app's highlighting:
 *
 * - Unicode compatibility forms are composed (NFKC): `CO₂` is `CO2`, `ﬁ` is `fi`, full-width
 *   `ＡＢＣ` is `ABC`. Case and diacritics are then folded by each index's tokenizer, and
 *   here by `foldText`.
 * - Chinese, Japanese and Korean have no spaces between words, so a run of their characters
 *   is indexed as overlapping character pairs (`核融合` is `核融 融合`), and a query's run
 *   becomes the phrase of its pairs: a word is found wherever its characters stand
 *   together, without a dictionary. A single character stays as it is (and so finds only
 *   itself standing alone).
 * - A word with a German umlaut or ß is also indexed in its transliteration (`Müller` also as
 *   `Mueller`, `Weiß` as `Weiss`), so `Mueller` and `Weiss` find it; `Muller` finds it anyway once diacritics are folded.
 *   Queries are not folded the other way (`ue` → `u`), so they keep their precision
 *   (`Michael` never finds `Michal`); a query word with an umlaut also asks for its
 *   transliteration (`Müller` finds `Mueller` too).
 */

/** Characters of scripts written without spaces between words (and the Japanese long-vowel mark). */
const cjkRun = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC]+/gu;
const hasCjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Overlapping pairs of a run's characters, space separated (the run itself when it is one character). */
export function characterPairs(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  return chars.slice(1).map((char, i) => chars[i]! + char);
}

/** Text as the indexes read it (and queries are matched): compatibility forms composed, CJK runs as character pairs. */
export function indexForm(text: string): string {
  const composed = text.normalize('NFKC');
  return hasCjk.test(composed) ? composed.replace(cjkRun, (run) => ` ${characterPairs(run).join(' ')} `) : composed;
}

/** Case, diacritics and Unicode compatibility forms folded: `CO₂` is `co2`, `ﬁ` is `fi`, `Ｍüller` is `muller`. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replaceAll('ß', 'ss');
}

const umlauts: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue', ß: 'ss', ẞ: 'SS' };
// The letters above as a class: a letter added to the table is found by every pattern.
const letters = `[${Object.keys(umlauts).join('')}]`;
const umlautWord = new RegExp(`[\\p{L}\\p{N}]*${letters}[\\p{L}\\p{N}]*`, 'gu');
const hasUmlaut = new RegExp(letters);
const anyUmlaut = new RegExp(letters, 'g');

const transliterated = (text: string) => text.replace(anyUmlaut, (char) => umlauts[char]!);

/** The German transliterations of the words of a text that have an umlaut or ß: `Müller` → `Mueller`, `Weiß` → `Weiss`. */
export function transliterations(text: string): string[] {
  const composed = text.normalize('NFC');
  if (!hasUmlaut.test(composed)) return [];
  return (composed.match(umlautWord) ?? []).map(transliterated);
}

/** The whole text transliterated (`Über Müller` → `Ueber Mueller`); undefined when it has no umlaut. */
export function transliterate(text: string): string | undefined {
  const composed = text.normalize('NFC');
  return hasUmlaut.test(composed) ? transliterated(composed) : undefined;
}

/** Whether text has characters that are indexed as character pairs. */
export const isCjk = (text: string) => hasCjk.test(text);

/** The CJK runs of a text and what lies between them, with where each part starts. */
export function cjkParts(text: string): { text: string; start: number; cjk: boolean }[] {
  const parts: { text: string; start: number; cjk: boolean }[] = [];
  let at = 0;
  for (const match of text.matchAll(cjkRun)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index), start: at, cjk: false });
    parts.push({ text: match[0], start: match.index, cjk: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), start: at, cjk: false });
  return parts;
}
