import { fold } from '../../formats/query-words';

/**
 * Whether a record's whole title stands in a reference as a title does: after the authors' or
 * the year's punctuation (or a quote, a brace, a tag) or at a line's start, and closed by
 * punctuation or the line's end, not by a colon and more words (a subtitle, "Part II") nor by
 * another word. Both texts are folded and cut into words; the title's words are found as a run
 * of the reference's words (Knuth–Morris–Pratt, so the work is linear in the two texts), and
 * only the characters around each run are looked at. A regular expression built per record
 * did the same, but compiling one costs milliseconds, and a reference list asks thousands.
 */
export function standsAsTitle(referenceText: string, recordTitle: string): boolean {
  const folded = fold(recordTitle);
  const words = folded.match(wordPattern) ?? [];
  if (words.length < 2) return false;
  // The title's own closing marks ("… (v2)") are the title's, not what closes it.
  const own = (trailingMarks.exec(folded.trim())?.[0] ?? '').replace(/[.,;]+$/, '');
  const text = fold(referenceText);
  const tokens = [...text.matchAll(wordPattern)];
  for (const first of runsOf(words, tokens)) {
    const last = tokens[first + words.length - 1]!;
    const end = last.index + last[0].length;
    if (opensTitle(text, tokens[first]!.index) && (own ? ownMarksClose(text, end, own) : closesTitle(text, end))) return true;
  }
  return false;
}

const wordPattern = /[\p{L}\p{N}]+/gu;
const trailingMarks = /[^\p{L}\p{N}\s]+$/u;
const opening = new Set('.,;:)]}“"\'‘’«{–—-');
const closing = new Set('.,;)]}”"\'’»[(');
const space = /\s/;
const lineBreak = /[\n\r\u2028\u2029]/;

/** A line starts at the title, or one of `opening` stands before it with nothing but spaces between. */
function opensTitle(text: string, start: number): boolean {
  if (start === 0 || lineBreak.test(text[start - 1]!)) return true;
  let before = start - 1;
  while (before >= 0 && space.test(text[before]!)) before--;
  return before >= 0 && opening.has(text[before]!);
}

/** Past any spaces from `at`: one of `closing`, or the line's or the text's end. */
function closesTitle(text: string, at: number): boolean {
  let next = at;
  while (next < text.length && space.test(text[next]!)) {
    if (lineBreak.test(text[next]!)) return true;
    next++;
  }
  return next === text.length || closing.has(text[next]!);
}

/** The title's own marks after its last word (a period, comma or semicolon and spaces may come between), then its close. */
function ownMarksClose(text: string, at: number, own: string): boolean {
  const starts = /[.,;]/.test(text[at] ?? '') ? [at, at + 1] : [at];
  return starts.some((from) => {
    let next = from;
    while (next < text.length && space.test(text[next]!)) next++;
    return text.startsWith(own, next) && closesTitle(text, next + own.length);
  });
}

/** Where `words` stand as consecutive tokens, by the index of the first. */
function* runsOf(words: readonly string[], tokens: readonly RegExpExecArray[]): Generator<number> {
  // fallback[i]: the longest proper prefix of words[0..i] that is also its suffix.
  const fallback = new Int32Array(words.length);
  for (let i = 1, length = 0; i < words.length; i++) {
    while (length > 0 && words[i] !== words[length]) length = fallback[length - 1]!;
    if (words[i] === words[length]) length++;
    fallback[i] = length;
  }
  for (let t = 0, matched = 0; t < tokens.length; t++) {
    while (matched > 0 && tokens[t]![0] !== words[matched]) matched = fallback[matched - 1]!;
    if (tokens[t]![0] === words[matched]) matched++;
    if (matched === words.length) {
      yield t - words.length + 1;
      matched = fallback[matched - 1]!;
    }
  }
}
