import { toPlainLine } from './rich-text';
/**
 * Author strings as the records carry them: `Surname, Given M. [Affiliation] (ORCID:…)`.
 * Affiliations and ORCID suffixes are metadata about the person, not part of the name.
 */

export interface PersonName {
  readonly family: string;
  readonly given: string;
  readonly affiliation?: string;
  readonly orcid?: string;
}

const orcidPattern = /\(\s*ORCID\s*:?\s*([0-9Xx-]+)\s*\)/;

/**
 * Authors parsed lately, by their text: a store's writer parses each of a record's authors for
 * its keys, its facets and its text alike, and names recur from record to record. Short
 * texts only, and a bounded number, so hostile input cannot make it hold much.
 */
const parsedAuthors = new Map<string, PersonName>();
const parsedAuthorsKept = 4096;
const parsedAuthorMaxChars = 512;

export function parseAuthor(raw: string): PersonName {
  if (raw.length > parsedAuthorMaxChars) return parseAuthorText(raw);
  let parsed = parsedAuthors.get(raw);
  if (!parsed) {
    if (parsedAuthors.size >= parsedAuthorsKept) parsedAuthors.clear();
    parsedAuthors.set(raw, (parsed = parseAuthorText(raw)));
  }
  return parsed;
}

function parseAuthorText(raw: string): PersonName {
  // Names carry entities too (`M&uuml;ller`): read as a reader sees them.
  let rest = toPlainLine(raw);
  const orcidMatch = orcidPattern.exec(rest);
  const orcid = orcidMatch ? formatOrcid(orcidMatch[1]!) : undefined;
  rest = rest.replace(orcidPattern, ' ');
  const affiliationMatch = /\[(.*)\]/s.exec(rest);
  const affiliation = affiliationMatch?.[1]?.trim() || undefined;
  rest = rest
    .replace(/\[.*\]/s, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const comma = rest.indexOf(',');
  const family = (comma >= 0 ? rest.slice(0, comma) : rest).trim();
  const given = comma >= 0 ? rest.slice(comma + 1).trim() : '';
  return { family, given, ...(affiliation ? { affiliation } : {}), ...(orcid ? { orcid } : {}) };
}

/**
 * The last entry of an author list that is known to be cut short: citations end the list with
 * "et al." (CSL), BibTeX with "and others", and it names nobody.
 */
export const etAlAuthor = 'et al.';

/** "et al.", "et al", "others": an author entry that says the list goes on. */
export function isEtAl(raw: string): boolean {
  return /^\s*(et\.?\s*al\.?|others)\s*$/i.test(raw);
}

/** A person's name as written, without affiliation or ORCID iD: "Fredrickson, E.D. [PPPL]" → "Fredrickson, E.D.". */
export function personName(raw: string): string {
  const { family, given } = parseAuthor(raw);
  return given ? `${family}, ${given}` : family;
}

function formatOrcid(digits: string): string {
  return canonicalOrcid(digits) ?? digits;
}

/**
 * An ORCID iD in its canonical form (`0000-0002-5901-1658`) from any way people write it:
 * hyphenated, sixteen characters run together, or as an https://orcid.org/ address.
 * Undefined for anything else.
 */
export function canonicalOrcid(text: string): string | undefined {
  const bare = text
    .trim()
    .replace(/^(https?:\/\/)?(www\.)?orcid\.org\//i, '')
    .replace(/-/g, '')
    .toUpperCase();
  return /^\d{15}[\dX]$/.test(bare) ? bare.match(/.{4}/g)!.join('-') : undefined;
}

/** Initials of given names: "John Michael" → "J. M.", "Jean-Luc" → "J.-L.", "M.N." → "M. N.". */
export function initials(given: string): string {
  return (
    given
      // Upstream records often run initials together ("Shneider, M.N."); each one counts.
      .replace(/\.(?=\p{L})/gu, '. ')
      .split(/\s+/)
      .filter(Boolean)
      .map((part) =>
        part
          .split('-')
          .map((piece) => {
            const letter = /\p{L}/u.exec(piece)?.[0];
            return letter ? `${letter.toUpperCase()}.` : '';
          })
          .filter(Boolean)
          .join('-'),
      )
      .filter(Boolean)
      .join(' ')
  );
}

/** "Surname, I. J." — the citation form the BibTeX codec writes. */
export function surnameInitials(raw: string): string {
  const { family, given } = parseAuthor(raw);
  const short = initials(given);
  return short ? `${family}, ${short}` : family;
}

/** The letters of a given name's initials: "Eric D." → ["E", "D"]. */
const initialLetters = (given: string) =>
  initials(given)
    .split(/[\s.-]+/)
    .filter(Boolean);

/**
 * An author as the index also reads it: surname and initials ("Fredrickson, Eric D." →
 * "Fredrickson E D"), so a name asked for by initials finds every spelling of the given names.
 */
export function initialsForm(raw: string): string | undefined {
  const { family, given } = parseAuthor(raw);
  const letters = initialLetters(given);
  return family && letters.length ? `${family} ${letters.join(' ')}` : undefined;
}

/**
 * A search for a person written as a name (`Fredrickson, E D`, `Fredrickson, Eric`): the
 * phrase of surname and initials, which finds it in any spelling of the given names.
 * Undefined for anything else (query syntax, no comma), which is searched as typed.
 */
export function nameQuery(value: string): string | undefined {
  if (/["()*]|\b(AND|OR|NOT)\b|(^|\s)-/.test(value)) return undefined;
  const match = /^([^,]+),([^,]+)$/.exec(value.trim());
  if (!match) return undefined;
  const letters = initialLetters(match[2]!);
  return letters.length ? `"${match[1]!.trim()} ${letters.join(' ')}"` : undefined;
}
