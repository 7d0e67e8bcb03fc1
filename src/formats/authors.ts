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

export function parseAuthor(raw: string): PersonName {
  // Names carry entities too (`M&uuml;ller`): read as a reader sees them.
  let rest = toPlainLine(raw);
  const orcidMatch = orcidPattern.exec(rest);
  const orcid = orcidMatch ? formatOrcid(orcidMatch[1]!) : undefined;
  rest = rest.replace(orcidPattern, ' ');
  const affiliationMatch = /\[(.*)\]/s.exec(rest);
  const affiliation = affiliationMatch?.[1]?.trim() || undefined;
  rest = rest.replace(/\[.*\]/s, ' ').replace(/\s+/g, ' ').trim();
  const comma = rest.indexOf(',');
  const family = (comma >= 0 ? rest.slice(0, comma) : rest).trim();
  const given = comma >= 0 ? rest.slice(comma + 1).trim() : '';
  return { family, given, ...(affiliation ? { affiliation } : {}), ...(orcid ? { orcid } : {}) };
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
  return given
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
    .join(' ');
}

/** "Surname, I. J." — the citation form the BibTeX codec writes. */
export function surnameInitials(raw: string): string {
  const { family, given } = parseAuthor(raw);
  const short = initials(given);
  return short ? `${family}, ${short}` : family;
}
