import { fold } from '../../formats/query-words';

/**
 * Formatted references as people paste them from a paper's reference list (APA, Chicago,
 * Harvard, Vancouver, IEEE, Nature and physics styles, numbered or not): the DOI, the year,
 * the surnames and the title, each found by a single left-to-right look at one reference of
 * bounded length. Approximate by nature; the lookup scores every candidate against the whole
 * reference, so a title guessed a word too long or short still finds its record.
 */

export interface ReferenceFacts {
  readonly doi?: string;
  readonly year?: number;
  /** Capitalised names of the author list (the first author's first), as written. */
  readonly surnames: readonly string[];
  readonly title?: string;
}

/** Longest reference text looked at: a reference is a few hundred characters, a paragraph of prose is not one. */
export const maxReferenceLength = 2_000;

const doiPattern = /10\.\d{4,9}\/[^\s"<>]+/i;

/** A DOI found in text, without trailing punctuation (a closing parenthesis stays when the DOI opened one). */
export function findDoi(text: string): string | undefined {
  const match = doiPattern.exec(text);
  if (!match) return undefined;
  let doi = match[0];
  for (;;) {
    const last = doi.at(-1)!;
    if (".,;:]}>'".includes(last) || (last === ')' && count(doi, '(') < count(doi, ')'))) doi = doi.slice(0, -1);
    else break;
  }
  return doi;
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n += 1;
  return n;
}

/** A line that is nothing but a DOI: bare, `doi:` or a resolver URL. */
export function isDoiOnly(line: string): boolean {
  return /^(?:doi:\s*|https?:\/\/(?:dx\.)?doi\.org\/)?10\.\d{4,9}\/\S+$/i.test(line.trim());
}

const lastYear = new Date().getUTCFullYear() + 1;
const plausible = (year: number) => year >= 1600 && year <= lastYear;

/** The publication year: a parenthesised one first (APA, Harvard, Chicago, Nature), else the first plausible four digits. */
export function findYear(text: string): number | undefined {
  for (const match of text.matchAll(/\((?:[^()\d]{0,20})?(\d{4})[a-z]?[^()]{0,20}\)/g)) {
    const year = Number(match[1]);
    if (plausible(year)) return year;
  }
  for (const match of text.matchAll(/(?<![\d./-])(\d{4})[a-z]?(?![\d/-]|\.\d)/g)) {
    const year = Number(match[1]);
    if (plausible(year)) return year;
  }
  return undefined;
}

/** A leading list number: `[12]`, `12.`, `12)`, `(12)`. */
export const numberMarker = /^\s*(?:\[\d{1,5}\]|\(\d{1,5}\)|\d{1,5}[.)])\s+/;

const isInitials = (token: string) => /^(?:\p{Lu}\.?-?){1,3},?$/u.test(token) && token.length <= 8 && /\.|,$|^\p{Lu}{1,3}$/u.test(token);
const isCapitalised = (token: string) => /^\p{Lu}[\p{L}'’-]*\p{L}[.,;]?$/u.test(token);
const connectives = new Set(['and', '&', 'et', 'al', 'al.', 'al.,', 'und', 'y', 'e']);

/**
 * The author list at the start of a reference: surnames, initials (`J.`, `J.-P.`, Vancouver's
 * `JA`), `and`/`&`/`et al.`. It ends at the first word that is none of these, or at a name
 * that closes with a full stop.
 */
function authorSpan(tokens: readonly string[]): { end: number; surnames: string[] } {
  const surnames: string[] = [];
  let index = 0;
  for (; index < tokens.length; index++) {
    const token = tokens[index]!;
    const next = tokens[index + 1] ?? '';
    if (connectives.has(token.toLowerCase())) continue;
    // "J. A. Smith" and "Smith, J. A." read; undotted capitals only as Vancouver's initials right
    // after a surname ("Lowry OH,"), so the "A" that starts "Wlodawer, A. A brief history" is the title's.
    const previous = tokens[index - 1] ?? '';
    const undotted = !token.includes('.') && !/,$/.test(token);
    if (isInitials(token) && (!undotted || (isCapitalised(previous) && !/[.,;]$/.test(previous)))) continue;
    if (!isCapitalised(token)) break;
    const name = token.replace(/[.,;]$/, '');
    const authorLike =
      /,$/.test(token) ||
      isInitials(next) ||
      connectives.has(next.toLowerCase()) ||
      (index > 0 && isInitials(tokens[index - 1]!) && /[.,]$/.test(token));
    if (!authorLike) break;
    surnames.push(name);
    if (/[.;]$/.test(token) && !isInitials(next)) {
      index += 1;
      break;
    }
  }
  return { end: index, surnames };
}

/** The text up to the end of its first sentence (a full stop, question or exclamation mark before a space). */
function firstSentence(text: string): string {
  const match = /[.?!](?:\s|$)/.exec(text);
  return (match ? text.slice(0, match.index + (match[0][0] === '.' ? 0 : 1)) : text).trim();
}

const cleanTitle = (title: string) => title.replace(/^[\s"“”'‘’«»]+|[\s"“”'‘’«»,.;:]+$/g, '').trim();

/** Facts of one formatted reference. */
export function formattedFacts(raw: string): ReferenceFacts {
  const text = raw.slice(0, maxReferenceLength).replace(numberMarker, '').replace(/\s+/g, ' ').trim();
  const doi = findDoi(text);
  const year = findYear(text);
  // Links say nothing of the title and hold digits that look like years.
  const plain = text
    .replace(/https?:\/\/\S+/gi, ' ')
    .replace(/\bdoi:\s*\S+/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const tokens = plain.split(' ');
  const { end, surnames } = authorSpan(tokens);

  // A quoted title (Chicago, MLA, IEEE): “Title,” or "Title."
  const quoted = /[“"«]([^”"»]{8,400})[”"»]/.exec(plain);
  if (quoted) return { doi, year, surnames, title: cleanTitle(quoted[1]!) };
  // APA and Harvard: Authors (2020). Title. — the sentence after the parenthesised year.
  const apa = /\((?:[^()\d]{0,20})?\d{4}[a-z]?[^()]{0,20}\)[.:,]?\s+/.exec(plain);
  if (apa && apa.index <= plain.length / 2) {
    const title = cleanTitle(firstSentence(plain.slice(apa.index + apa[0].length)));
    if (title) return { doi, year, surnames, title };
  }
  // Vancouver, Nature, physics: Authors. Title. Journal … — the sentence after the author list;
  // Chicago author-date puts the year first: Authors. 2020. Title.
  let rest = tokens.slice(end).join(' ');
  const leadingYear = /^\(?\d{4}[a-z]?\)?[.,:]?\s+/.exec(rest);
  if (leadingYear) rest = rest.slice(leadingYear[0].length);
  const title = cleanTitle(firstSentence(rest));
  return { doi, year, surnames, ...(title ? { title } : {}) };
}

const stopWords = new Set(
  'a an the and or of in on at to for from with by as is are was were be been its it this that these those into over under via using about between through within without de la le les des du et der die das und von zu el los las y en'.split(
    ' ',
  ),
);

/** The words that identify a title: folded, three letters or more, no stop words. */
export function significantWords(text: string): string[] {
  const words = fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((word) => (word.length >= 3 || /^\d+$/.test(word) || /[^\p{Script=Latin}\d]/u.test(word)) && !stopWords.has(word));
}
