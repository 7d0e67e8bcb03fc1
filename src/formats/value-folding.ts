import type { FacetDef } from '../deployments/facets';
import type { ValueFolding } from '../deployments/key-names';
import { parseAuthor } from './authors';
import { foldText } from './fold-text';
import { toPlainLine } from './rich-text';
import { valuesOf } from './text';

/**
 * How the values of a field count as one value in a facet and in the exact parameter that
 * selects them (formats/keys.ts stores them so folded): what people treat as the same
 * subject, organisation or person, whatever the case, the points or the number.
 */

/** The longest facet value kept: the exact parameters take no more. */
const maxValueLength = 300;

/**
 * Text with neither markup nor an entity reads as written (white space collapsed), so most
 * values skip the HTML parser: every record's facet values and keys are read at import.
 */
const markup = /[&<\u0000]/;
const plainLine = (raw: string) => (markup.test(raw) ? toPlainLine(raw) : raw.replace(/\s+/g, ' ').trim());

/** A stored field value as a facet shows it: markup and entities resolved, white space collapsed. */
export const facetValueOf = (raw: string) => plainLine(raw).replace(/\s+/g, ' ').trim().slice(0, maxValueLength);

/** Surname and given names of a name without markup, affiliation or ORCID iD, as `parseAuthor` reads them; else parseAuthor's. */
function nameParts(raw: string): { family: string; given: string } {
  if (/[&<\u0000[(]/.test(raw)) return parseAuthor(raw);
  const rest = raw.replace(/\s+/g, ' ').trim();
  const comma = rest.indexOf(',');
  return comma < 0 ? { family: rest, given: '' } : { family: rest.slice(0, comma).trim(), given: rest.slice(comma + 1).trim() };
}

/** A person's name as written, without affiliation or ORCID iD (authors.ts `personName`). */
const nameAsWritten = (raw: string) => {
  const { family, given } = nameParts(raw);
  return given ? `${family}, ${given}` : family;
};

/** How a stored field value reads as a facet value (FacetDef `reading`). */
const readings: Record<NonNullable<FacetDef['reading']>, (raw: string) => string> = { 'person-name': nameAsWritten };

/** A facet's values as a record holds them in its field, read as the facet shows them. */
export function facetValuesOf(facet: FacetDef, values: readonly string[]): string[] {
  const reading = facet.reading ? readings[facet.reading] : undefined;
  return values.map((raw) => facetValueOf(reading ? reading(raw) : raw)).filter(Boolean);
}

/** One of a record's facet values, and its folded form where the facet folds (FacetDef `fold`). */
export interface FacetValue {
  readonly value: string;
  readonly folded?: string;
}

/** A record's values of each facet drawn from a field (FacetDef `field`), folded where the facet folds. */
export type RecordFacetValues = (facet: FacetDef) => readonly FacetValue[];

/**
 * A record's facet values, each facet's read once: its exact-match keys (keys.ts) and its
 * facet rows draw on the same values, and reading them is much of an import's cost a record.
 */
export function recordFacetValues(record: Readonly<Record<string, unknown>>): RecordFacetValues {
  const read = new Map<string, readonly FacetValue[]>();
  return (facet) => {
    let values = read.get(facet.name);
    if (!values) {
      const fold = facet.fold ? valueFoldings[facet.fold] : undefined;
      const raw = facet.field ? valuesOf(record[facet.field]) : [];
      values = facetValuesOf(facet, raw).map((value) => (fold ? { value, folded: fold(value) } : { value }));
      read.set(facet.name, values);
    }
    return values;
  };
}

/** Case, diacritics and white space folded; compatibility forms composed (nothing to compose or strip in ASCII). */
const folded = (value: string) =>
  (/^[\u0000-\u007f]*$/.test(value) ? value.toLowerCase() : foldText(value.normalize('NFKC'))).replace(/\s+/g, ' ').trim();

/**
 * One word in the singular, by English endings: `tokamaks` and `plasmas` are `tokamak` and
 * `plasma`, `studies` is `study`, `processes` is `process`. Both sides of a comparison are
 * folded alike, so a rule that shortens a singular too (`physics` → `physic`) only merges
 * what was one word already; words of three letters or fewer are left as they are.
 */
function singular(word: string): string {
  if (word.length <= 3 || !/^\p{L}+$/u.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** A subject or keyword: case and number folded (`Tokamaks` = `tokamak`). */
export function foldTerm(value: string): string {
  return folded(value).split(' ').map(singular).join(' ');
}

/**
 * An organisation's name: case and punctuation folded (`U.S. Dept. of Energy (DOE)` =
 * `US Dept of Energy DOE`). Points and apostrophes join what they stand between; other
 * punctuation separates words.
 */
export function foldOrganisation(value: string): string {
  return folded(value)
    .replace(/[.'’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * A person's name as surname and initials (`Fredrickson, E. D.`, `Fredrickson, E.D.`,
 * `Fredrickson, E D` and `Fredrickson, Eric D.` are `fredrickson, e d`): the spellings the
 * `author` parameter already finds as one (authors.ts, `nameQuery`). Affiliation and ORCID iD
 * are left out; a name without a comma is folded as an organisation's.
 */
export function foldPersonName(value: string): string {
  const { family, given } = nameParts(value);
  // Some upstream records lead with a stray comma (`, Fredrickson, E.`): the name follows it.
  if (!family.trim() && given.includes(',')) return foldPersonName(given);
  const surname = foldOrganisation(family);
  const letters = initialLetters(given);
  return letters.length > 0 && surname ? `${surname}, ${letters.join(' ')}` : surname || foldOrganisation(given);
}

const isLetter = (char: string | undefined) => char !== undefined && (/[a-z]/i.test(char) || (char > '\u007f' && /\p{L}/u.test(char)));

/**
 * The folded first letter of each given name, as authors.ts `initials` reads them: names
 * are separated by white space, hyphens and a point before a letter (`M.N.`, `Jean-Luc`).
 */
function initialLetters(given: string): string[] {
  const letters: string[] = [];
  let start = true;
  for (let i = 0; i < given.length; i++) {
    const char = given[i]!;
    if (char === ' ' || char === '\t' || char === '\n' || char === '-') start = true;
    else if (char === '.') start ||= isLetter(given[i + 1]);
    else if (start && isLetter(char)) {
      letters.push(folded(char));
      start = false;
    }
  }
  return letters;
}

/**
 * A folding that remembers its last few thousand answers: an import folds each record's
 * values, and names, subjects and organisations repeat across records far more than they differ.
 */
function remembered(fold: (value: string) => string): (value: string) => string {
  const answers = new Map<string, string>();
  return (value) => {
    let answer = answers.get(value);
    if (answer === undefined) {
      if (answers.size >= 16_384) answers.clear();
      answer = fold(value);
      answers.set(value, answer);
    }
    return answer;
  };
}

/** Each folding by name, as the deployment table names it (FacetDef `fold`, ExactParam `normalize`). */
export const valueFoldings: { readonly [F in ValueFolding]: (value: string) => string } = {
  term: remembered(foldTerm),
  organisation: remembered(foldOrganisation),
  person: remembered(foldPersonName),
};
