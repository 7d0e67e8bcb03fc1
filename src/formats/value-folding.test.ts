import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initials, parseAuthor } from './authors';
import { foldText } from './fold-text';
import { foldOrganisation, foldPersonName, foldTerm } from './value-folding';

describe('foldTerm', () => {
  it('folds case and number', () => {
    for (const spelling of ['Tokamaks', 'tokamak', 'TOKAMAKS', 'Tokamak']) expect(foldTerm(spelling)).toBe('tokamak');
    expect(foldTerm('Spherical Tokamaks')).toBe(foldTerm('spherical tokamak'));
    expect(foldTerm('Studies')).toBe(foldTerm('study'));
    expect(foldTerm('processes')).toBe(foldTerm('Process'));
    expect(foldTerm('70 PLASMA PHYSICS AND FUSION TECHNOLOGY')).toBe(foldTerm('70 Plasma Physics and Fusion Technology'));
  });

  it('keeps apart what differs in more than case and number', () => {
    expect(foldTerm('plasma physics')).not.toBe(foldTerm('plasma'));
    expect(foldTerm('United States')).not.toBe(foldTerm('plasma'));
    expect(foldTerm('gas')).not.toBe(foldTerm('ga'));
    expect(foldTerm('analysis')).toBe('analysis');
  });

  it('is idempotent', () => {
    fc.assert(fc.property(fc.string(), (text) => foldTerm(foldTerm(text)) === foldTerm(text)));
  });
});

describe('foldOrganisation', () => {
  it('folds case and punctuation', () => {
    expect(foldOrganisation('Argonne National Lab. (ANL), Argonne, IL (United States)')).toBe(
      foldOrganisation('ARGONNE NATIONAL LAB (ANL) ARGONNE IL UNITED STATES'),
    );
    expect(foldOrganisation('U.S. Department of Energy')).toBe(foldOrganisation('US Department of Energy'));
    expect(foldOrganisation('Argonne National Lab')).not.toBe(foldOrganisation('Argonne National Laboratory'));
  });
});

describe('foldPersonName', () => {
  it('reads a name as surname and initials, with or without points and spaces', () => {
    const one = [
      'Fredrickson, E D',
      'Fredrickson, E. D.',
      'Fredrickson, E.D.',
      'fredrickson, Eric D.',
      'Fredrickson, E.D. [PPPL] (ORCID:0000000195444980)',
    ];
    for (const spelling of one) expect(foldPersonName(spelling), spelling).toBe('fredrickson, e d');
    expect(foldPersonName('Fredrickson, Eric')).toBe(foldPersonName('Fredrickson, E.'));
    expect(foldPersonName('Podestà, M.')).toBe(foldPersonName('Podesta, Mario'));
    expect(foldPersonName('Fredrickson, E M')).not.toBe(foldPersonName('Fredrickson, E D'));
    expect(foldPersonName(', Fredrickson, E.')).toBe('fredrickson, e');
  });

  it('gives every way of writing the initials of a name the same fold', () => {
    const letter = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    const separator = fc.constantFrom(' ', '. ', '.', '.  ');
    fc.assert(
      fc.property(fc.array(fc.tuple(letter, separator), { minLength: 1, maxLength: 4 }), (parts) => {
        const written = parts.map(([initial, after]) => `${initial}${after}`).join('');
        const spaced = parts.map(([initial]) => initial).join(' ');
        return foldPersonName(`Doe, ${written}`) === foldPersonName(`DOE, ${spaced}`);
      }),
    );
  });

  it('reads initials as authors.ts does, for any given names', () => {
    const given = fc.stringMatching(/^[A-Za-zé .\-'()]{0,16}$/);
    fc.assert(
      fc.property(given, (names) => {
        const { family, given: read } = parseAuthor(`Doe, ${names}`);
        const letters = foldText(initials(read))
          .split(/[\s.-]+/)
          .filter(Boolean);
        const expected = letters.length > 0 ? `${foldOrganisation(family)}, ${letters.join(' ')}` : 'doe';
        return foldPersonName(`Doe, ${names}`) === expected;
      }),
    );
  });
});
