import type { FacetDef } from '../deployments/facets';
import type { ValueFolding } from '../deployments/key-names';
import { initials, parseAuthor, personName } from './authors';
import { foldText } from './fold-text';
import { toPlainLine } from './rich-text';

/**
 * How the values of a field count as one value in a facet and in the exact parameter that
 * selects them (formats/keys.ts stores them so folded): what people treat as the same
 * subject, organisation or person, whatever the case, the points or the number.
 */

/** The longest facet value kept: the exact parameters take no more. */
const maxValueLength = 300;

/** A stored field value as a facet shows it: markup and entities resolved, white space collapsed. */
export const facetValueOf = (raw: string) => toPlainLine(raw).replace(/\s+/g, ' ').trim().slice(0, maxValueLength);

/** How a stored field value reads as a facet value (FacetDef `reading`). */
const readings: Record<NonNullable<FacetDef['reading']>, (raw: string) => string> = { 'person-name': personName };

/** A facet's values as a record holds them in its field, read as the facet shows them. */
export function facetValuesOf(facet: FacetDef, values: readonly string[]): string[] {
  const reading = facet.reading ? readings[facet.reading] : undefined;
  return values.map((raw) => facetValueOf(reading ? reading(raw) : raw)).filter(Boolean);
}

/** Case, diacritics and white space folded; compatibility forms composed. */
const folded = (value: string) => foldText(value.normalize('NFKC')).replace(/\s+/g, ' ').trim();

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
  const { family, given } = parseAuthor(value);
  // Some upstream records lead with a stray comma (`, Fredrickson, E.`): the name follows it.
  if (!family.trim() && given.includes(',')) return foldPersonName(given);
  const surname = foldOrganisation(family);
  const letters = foldText(initials(given))
    .split(/[\s.-]+/)
    .filter(Boolean);
  return letters.length > 0 && surname ? `${surname}, ${letters.join(' ')}` : surname || foldOrganisation(given);
}

/** Each folding by name, as the deployment table names it (FacetDef `fold`, ExactParam `normalize`). */
export const valueFoldings: { readonly [F in ValueFolding]: (value: string) => string } = {
  term: foldTerm,
  organisation: foldOrganisation,
  person: foldPersonName,
};
