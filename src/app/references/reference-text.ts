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
  const doi = match[0];
  // Parentheses counted once and the end moved back, so a DOI closed by many is read in one pass.
  const open = count(doi, '(');
  let close = count(doi, ')');
  let end = doi.length;
  while (end > 0) {
    const last = doi[end - 1]!;
    if (".,;:]}>'".includes(last)) end -= 1;
    else if (last === ')' && open < close) {
      end -= 1;
      close -= 1;
    } else break;
  }
  return doi.slice(0, end);
}

function count(text: string, char: string): number {
  let n = 0;
  for (let index = text.indexOf(char); index !== -1; index = text.indexOf(char, index + 1)) n += 1;
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

const givenLike = (token: string) => /^\p{Lu}[\p{L}.'’-]*[.,;]?$/u.test(token);
const isInitial = (token: string) => /^\p{Lu}\.[;,]?$/u.test(token);

/**
 * "Surname, Given; Surname, Given (2020)", as repositories and DataCite list creators: the
 * surnames, when the first author's given names end in a semicolon; undefined otherwise.
 */
function semicolonAuthors(tokens: readonly string[]): { end: number; surnames: string[] } | undefined {
  const surnames: string[] = [];
  let index = 0;
  while (index < tokens.length) {
    // The surname: a word or a few ("van der Berg,"), the last ending in a comma.
    let comma = index;
    while (comma < Math.min(tokens.length, index + 3) && !tokens[comma]!.endsWith(',')) comma += 1;
    const surname = tokens[comma]?.slice(0, -1) ?? '';
    if (!tokens[comma]?.endsWith(',') || !isCapitalised(surname)) break;
    // The given names: at most four words, initials only after an initial, the last ending in a
    // semicolon (more authors follow), or before "and", "&" or what is not a name (the year).
    let given = comma + 1;
    let more = false;
    let initials = false;
    while (given < tokens.length && given <= comma + 4) {
      const token = tokens[given]!;
      if (!givenLike(token) || (initials && !isInitial(token))) break;
      initials ||= isInitial(token);
      given += 1;
      if (token.endsWith(';')) {
        more = true;
        break;
      }
      if (token.endsWith('.') && !isInitial(token)) break;
    }
    if (given === comma + 1) break;
    if (surnames.length === 0 && !more) return undefined;
    surnames.push(surname);
    index = given;
    if (!more && connectives.has((tokens[index] ?? '').toLowerCase())) {
      index += 1;
      more = true;
    }
    if (!more) break;
  }
  return surnames.length > 0 ? { end: index, surnames } : undefined;
}

/** Abbreviations whose full stop does not end a title's sentence ("Bacillus sp. strain", "Fig. 3"). */
const abbreviations = new Set(
  'sp spp subsp ssp var cf al vs e.g i.e etc approx ca no nos vol fig figs eq eqs ref refs dr mr mrs ms st jr sr u.s'.split(' '),
);
/**
 * Journal words: inside a title ("Comment on Phys. Rev. Lett.") they do not end it; first in
 * the sentence, or before a volume's digits, they are the journal after a title-less reference.
 */
const journalWords = new Set('phys chem biol j rev lett proc natl acad sci appl nucl'.split(' '));

/**
 * The text up to the end of its first sentence: a full stop, question or exclamation mark
 * before a space, except the full stop of an abbreviation or of a short lowercase word before
 * a lowercase one ("sp. nov."). One pass.
 */
function firstSentence(text: string): string {
  for (const match of text.matchAll(/[.?!](?=\s|$)/g)) {
    const at = match.index;
    if (text[at] === '.') {
      const wordStart = text.lastIndexOf(' ', at - 1) + 1;
      const written = text.slice(wordStart, at).replace(/^[(["“‘]+/, '');
      const word = written.toLowerCase();
      const next = text[at + 2] ?? '';
      const lowerNext = /\p{Ll}/u.test(next);
      if (abbreviations.has(word) || (lowerNext && /^\p{Ll}{1,3}$/u.test(written))) continue;
      if (journalWords.has(word) && wordStart > 0 && next !== '' && !/\d/.test(next)) continue;
    }
    return text.slice(0, at + (text[at] === '.' ? 0 : 1)).trim();
  }
  return text.trim();
}

const openingJunk = ' "“”\'‘’«»';
const closingJunk = ' "“”\'‘’«»,.;:';

/** A title without the quotes and punctuation around it, trimmed from both ends by index, not by a backtracking pattern. */
function cleanTitle(title: string): string {
  let start = 0;
  let end = title.length;
  while (start < end && (openingJunk.includes(title[start]!) || /\s/.test(title[start]!))) start += 1;
  while (end > start && (closingJunk.includes(title[end - 1]!) || /\s/.test(title[end - 1]!))) end -= 1;
  return title.slice(start, end);
}

const openingQuotes = '“"«';
const closingQuotes = '”"»';

/**
 * The first quoted passage of 8 to 400 characters (a Chicago, MLA or IEEE title): for each
 * closing quote, the earliest opening quote since the last one that is at most 400 back.
 * One pass; a line of quotes costs no more than a line of letters.
 */
function quotedPassage(text: string): string | undefined {
  const openers: number[] = [];
  let first = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (closingQuotes.includes(char) && first < openers.length) {
      while (first < openers.length && index - openers[first]! - 1 > 400) first += 1;
      if (first < openers.length && index - openers[first]! - 1 >= 8) return text.slice(openers[first]! + 1, index);
      openers.length = 0;
      first = 0;
    }
    if (openingQuotes.includes(char)) openers.push(index);
  }
  return undefined;
}

const parenthesisedYear = /\((?:[^()\d]{0,20})?\d{4}[a-z]?[^()]{0,20}\)[.:,]?\s+/;

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
  const { end, surnames } = semicolonAuthors(tokens) ?? authorSpan(tokens);

  // A quoted title (Chicago, MLA, IEEE): “Title,” or "Title."
  const quoted = quotedPassage(plain);
  if (quoted) return { doi, year, surnames, title: cleanTitle(quoted) };
  // APA and Harvard: Authors (2020). Title. — the sentence after the parenthesised year, where
  // it opens the reference's first half or is followed by a sentence of title-like words (a
  // long author list); the Nature style's year at the end is followed by nothing of the kind.
  const apa = parenthesisedYear.exec(plain);
  if (apa) {
    const title = cleanTitle(firstSentence(plain.slice(apa.index + apa[0].length)));
    if (title && (apa.index <= plain.length / 2 || significantWords(title).length >= 3)) return { doi, year, surnames, title };
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
