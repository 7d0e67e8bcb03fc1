import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initials, initialsForm, nameQuery, parseAuthor, surnameInitials } from './authors';

describe('parseAuthor', () => {
  it('splits the upstream form into name, affiliation and ORCID', () => {
    expect(parseAuthor('Surname, Given M [Org, City (Country)] (ORCID:0000000123456789)')).toEqual({
      family: 'Surname',
      given: 'Given M',
      affiliation: 'Org, City (Country)',
      orcid: '0000-0001-2345-6789',
    });
  });

  it.each([
    // Shapes seen in the harvested upstream records (data/real).
    [
      'Kumari, Sunita [Cold Spring Harbor Laboratory Cold Spring Harbor, NY (United States)]',
      { family: 'Kumari', given: 'Sunita', affiliation: 'Cold Spring Harbor Laboratory Cold Spring Harbor, NY (United States)' },
    ],
    [
      'Bell, R.E. [Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)] (ORCID:000000019544498X)',
      {
        family: 'Bell',
        given: 'R.E.',
        affiliation: 'Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)',
        orcid: '0000-0001-9544-498X',
      },
    ],
    [
      "O'Brien, Joseph [Argonne National Laboratory] (ORCID:0000000346556912)",
      { family: "O'Brien", given: 'Joseph', affiliation: 'Argonne National Laboratory', orcid: '0000-0003-4655-6912' },
    ],
    ['Hughes, Baker', { family: 'Hughes', given: 'Baker' }],
    ['Hall Jr., Robert O.', { family: 'Hall Jr.', given: 'Robert O.' }],
    ['Lunsford, ', { family: 'Lunsford', given: '' }],
    // An ORCID already hyphenated, or with a lower-case check digit, ends up in the canonical form.
    ['Doe, Jane (ORCID:0000-0002-1825-009x)', { family: 'Doe', given: 'Jane', orcid: '0000-0002-1825-009X' }],
  ])('reads %s', (raw, expected) => {
    expect(parseAuthor(raw)).toEqual(expected);
  });

  it('takes a name without a comma as the surname alone', () => {
    expect(parseAuthor('the DIII-D team')).toEqual({ family: 'the DIII-D team', given: '' });
    expect(parseAuthor('Nazikian R.')).toEqual({ family: 'Nazikian R.', given: '' });
    expect(parseAuthor('Plato [Academy]')).toEqual({ family: 'Plato', given: '', affiliation: 'Academy' });
  });

  it('keeps hyphenated and accented given names intact', () => {
    expect(parseAuthor('Wang, Wei-Chyung')).toEqual({ family: 'Wang', given: 'Wei-Chyung' });
    expect(parseAuthor('Müller-Lüdenscheidt, Jérôme Édouard')).toEqual({ family: 'Müller-Lüdenscheidt', given: 'Jérôme Édouard' });
  });

  it('never leaves brackets or the ORCID in the name (property)', () => {
    const part = fc.string({ unit: fc.constantFrom('a', 'B', 'é', ' ', '-', '.', "'") });
    fc.assert(
      fc.property(part, part, part, fc.stringMatching(/^\d{15}[\dX]$/), (family, given, org, orcid) => {
        fc.pre(family.trim() !== '' && !family.includes(','));
        const parsed = parseAuthor(`${family}, ${given} [${org}] (ORCID:${orcid})`);
        expect(parsed.family).toBe(family.replace(/\s+/g, ' ').trim());
        expect(parsed.given).toBe(given.replace(/\s+/g, ' ').trim());
        expect(parsed.orcid?.replace(/-/g, '')).toBe(orcid);
        expect(`${parsed.family}${parsed.given}`).not.toMatch(/[[\]()]|ORCID/);
      }),
      { numRuns: 100 },
    );
  });
});

describe('initials', () => {
  it.each([
    ['John Michael', 'J. M.'],
    ['Given M', 'G. M.'],
    ['Jean-Luc', 'J.-L.'],
    ['Émile', 'É.'],
    ['élodie anne', 'É. A.'],
    ['Øystein', 'Ø.'],
    ['Robert O.', 'R. O.'],
    // Initials written without spaces are common in the harvested records: each is kept.
    ['J.M.', 'J. M.'],
    ['R.E.', 'R. E.'],
    ['W.-C.', 'W.-C.'],
    ['', ''],
    ['  ', ''],
  ])('%j → %j', (given, expected) => {
    expect(initials(given)).toBe(expected);
  });
});

describe('surnameInitials', () => {
  it.each([
    ['Surname, Given M [Org, City (Country)] (ORCID:0000000123456789)', 'Surname, G. M.'],
    ['Smith, John Michael', 'Smith, J. M.'],
    ['Shneider, M.N. [Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)]', 'Shneider, M. N.'],
    ['Wang, W.-C. [University at Albany]', 'Wang, W.-C.'],
    ['Picard, Jean-Luc', 'Picard, J.-L.'],
    ['Zoë, Ängel', 'Zoë, Ä.'],
    ['Hall Jr., Robert O. [Flathead Lake Biological Station] (ORCID:0000000207635346)', 'Hall Jr., R. O.'],
    ['Plato', 'Plato'],
    ['Lunsford, ', 'Lunsford'],
  ])('%s → %s', (raw, expected) => {
    expect(surnameInitials(raw)).toBe(expected);
  });
});

describe('names by surname and initials', () => {
  it.each([
    ['Fredrickson, Eric D.', 'Fredrickson E D'],
    ['Fredrickson, E.D. [PPPL] (ORCID:0000000224563356)', 'Fredrickson E D'],
    ['Lindqvist, Sara-Maria', 'Lindqvist S M'],
    ['Plato', undefined],
  ])('%s is also indexed as %s', (raw, expected) => {
    expect(initialsForm(raw)).toBe(expected);
  });

  it.each([
    ['Fredrickson, E D', '"Fredrickson E D"'],
    ['Fredrickson, Eric', '"Fredrickson E"'],
    ['van der Berg, J.', '"van der Berg J"'],
    ['Fredrickson', undefined],
    ['"Fredrickson, E D"', undefined],
    ['Fredrickson, E OR Smith, J', undefined],
    ['-Fredrickson, E', undefined],
  ])('author=%s searches %s', (value, expected) => {
    expect(nameQuery(value)).toBe(expected);
  });
});
