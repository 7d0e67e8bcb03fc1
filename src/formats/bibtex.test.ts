import { Cite, plugins } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiRecord } from '../deployments/registry';
import { bibtexKey, recordsToBibtex, recordToBibtex } from './bibtex';
import { knownText } from './known-values';
import { toSearchText } from './rich-text';

/**
 * The BibTeX codec is checked against a real BibTeX parser (citation-js), because "parses
 * back to what we wrote" is what a researcher pasting our output into a reference manager
 * notices.
 *
 * Two citation-js facts shape these tests:
 * - It maps `abstractNote` (the spec's field name, which is Zotero's) to nothing: only
 *   biblatex's `abstract` becomes CSL `abstract`. To check that the description survives
 *   escaping, the abstract tests rename the field to `abstract` before parsing; the raw
 *   entry is also checked to carry `abstractnote`.
 * - `place` is likewise not mapped for @misc, so it is checked in the raw entry only.
 */

interface RawEntry {
  type: string;
  label: string;
  properties: Record<string, string>;
}

/** The entries as citation-js's BibTeX grammar reads them, before any field mapping. */
function rawEntries(text: string): RawEntry[] {
  // citation-js types every InputOptions member as required although all are optional.
  const options = { target: '@biblatex/entries+list', generateGraph: false } as Parameters<typeof plugins.input.chain>[1];
  return plugins.input.chain(text, options) as unknown as RawEntry[];
}

/** CSL-JSON as citation-js maps it, with the spec's abstractNote read as biblatex's abstract. */
function csl(text: string) {
  return new Cite(text.replace(/^(\s*)abstractNote(\s*=)/m, '$1abstract$2')).data as Array<Record<string, any>>;
}

const record = (fields: Partial<ApiRecord> & { repo_id: string }): ApiRecord => fields;

describe('recordToBibtex', () => {
  const full = record({
    repo_id: '2368548',
    title: 'Utah FORGE: Well 16B(78)-32 Pressure-Temperature Logs',
    authors: [
      'McLennan, John [Energy and Geoscience Institute at the University of Utah]',
      'Bell, R.E. [Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)] (ORCID:000000019544498X)',
      'Hughes, Baker Michael',
    ],
    description: 'Pressure-temperature gauge readings.',
    doi: 'https://doi.org/10.15121/2368548',
    country_publication: 'United States',
    publication_date: '2024-04-20T04:00:00Z',
    subjects: ['15 GEOTHERMAL ENERGY'],
  });

  it('writes a @misc entry keyed PREFIX_ID with the spec’s fields', () => {
    const text = recordToBibtex(full, 'OSTI');
    expect(text.startsWith('@misc{OSTI_2368548,\n')).toBe(true);
    const [entry, ...rest] = rawEntries(text);
    expect(rest).toHaveLength(0);
    expect(entry).toMatchObject({ type: 'misc', label: 'OSTI_2368548' });
    expect(entry!.properties).toEqual({
      title: 'Utah FORGE: Well 16B(78)-32 Pressure-Temperature Logs',
      author: 'McLennan, J. and Bell, R. E. and Hughes, B. M.',
      abstractnote: 'Pressure-temperature gauge readings.',
      doi: '10.15121/2368548',
      place: 'United States',
      year: '2024',
      month: '4',
    });
  });

  it('is read by a reference manager as the same work', () => {
    const [item, ...rest] = csl(recordToBibtex(full, 'OSTI'));
    expect(rest).toHaveLength(0);
    expect(item).toMatchObject({
      id: 'OSTI_2368548',
      title: 'Utah FORGE: Well 16B(78)-32 Pressure-Temperature Logs',
      abstract: 'Pressure-temperature gauge readings.',
      DOI: '10.15121/2368548',
      issued: { 'date-parts': [[2024, 4]] },
      author: [
        { family: 'McLennan', given: 'J.' },
        { family: 'Bell', given: 'R. E.' },
        { family: 'Hughes', given: 'B. M.' },
      ],
    });
  });

  it.each([
    ['https://doi.org/10.1000/xyz_1', '10.1000/xyz_1'],
    ['http://dx.doi.org/10.1000/xyz_1', '10.1000/xyz_1'],
    ['doi:10.1000/xyz_1', '10.1000/xyz_1'],
    ['10.1000/xyz_1', '10.1000/xyz_1'],
    // DOIs may carry characters that are special in TeX; biblatex's doi field is verbatim.
    ['10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-A', '10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-A'],
    ['10.1000/a%20b#frag~x', '10.1000/a%20b#frag~x'],
  ])('writes the DOI %s bare, as a parser reads it: %s', (stored, bare) => {
    const text = recordToBibtex(record({ repo_id: '1', doi: stored }), 'P');
    expect(csl(text)[0]!.DOI).toBe(bare);
  });

  it('omits empty and missing fields instead of writing empty values', () => {
    const text = recordToBibtex(
      record({
        repo_id: '7',
        title: 'Only a title',
        authors: [],
        description: '',
        doi: null,
        country_publication: '  ',
        publication_date: '',
      }),
      'P',
    );
    expect(rawEntries(text)[0]!.properties).toEqual({ title: 'Only a title' });
    expect(text).not.toMatch(/=\s*\{\s*\}/);
  });

  it('omits year and month when the publication date is not a real date', () => {
    const text = recordToBibtex(record({ repo_id: '7', title: 'T', publication_date: 'sometime' }), 'P');
    expect(rawEntries(text)[0]!.properties).toEqual({ title: 'T' });
  });

  it('writes year and month as plain numbers', () => {
    const entry = rawEntries(recordToBibtex(record({ repo_id: '7', publication_date: '1999-12-31T23:00:00Z' }), 'P'))[0]!;
    expect(entry.properties).toMatchObject({ year: '1999', month: '12' });
  });

  it('keeps a corporate author containing "and" as one author', () => {
    const text = recordToBibtex(record({ repo_id: '1', authors: ['Smith, John', 'Black and Veatch', 'Doe, Jane'] }), 'P');
    expect(csl(text)[0]!.author).toHaveLength(3);
  });

  it.each([
    ['a name that is just "and"', ['Smith, J.', 'and', 'Doe, J.']],
    ['a name starting with "and"', ['Smith, J.', 'And Sons, Ltd', 'Doe, J.']],
    ['a name ending with "and"', ['Smith, J.', 'Ferdinand and', 'Doe, J.']],
    ['an upper-case AND', ['Smith, J.', 'Research AND Development', 'Doe, J.']],
  ])('keeps the author count with %s', (_what, authors) => {
    const text = recordToBibtex(record({ repo_id: '1', authors }), 'P');
    const read = csl(text)[0]!.author as { family?: string; given?: string }[];
    expect(read).toHaveLength(3);
    // The neighbours must not swallow or lose a piece of the odd name.
    expect(read[0]).toEqual({ family: 'Smith', given: 'J.' });
    expect(read[2]).toEqual({ family: 'Doe', given: 'J.' });
  });

  it('skips authors with no name left after stripping affiliations and ORCIDs', () => {
    const text = recordToBibtex(
      record({ repo_id: '1', authors: ['Smith, J.', '   ', '[Some Lab]', '(ORCID:0000000123456789)', 'Doe, J.'] }),
      'P',
    );
    expect(rawEntries(text)[0]!.properties.author).toBe('Smith, J. and Doe, J.');
  });

  it('makes a usable citation key from any identifier', () => {
    expect(bibtexKey('OSTI', '12 34/5')).toBe('OSTI_12_34_5');
    const [item] = csl(recordToBibtex(record({ repo_id: 'a{b},c d', title: 'T' }), 'OSTI'));
    expect(item!.id).toBe(bibtexKey('OSTI', 'a{b},c d'));
  });
});

describe('recordsToBibtex', () => {
  it('writes records one after another, each readable', () => {
    const text = recordsToBibtex(
      [record({ repo_id: '1', title: 'One' }), record({ repo_id: '2', title: 'Two' }), record({ repo_id: '3', title: 'Three' })],
      'X',
    );
    expect(csl(text).map((item) => [item.id, item.title])).toEqual([
      ['X_1', 'One'],
      ['X_2', 'Two'],
      ['X_3', 'Three'],
    ]);
  });

  it('writes nothing for no records', () => {
    expect(recordsToBibtex([], 'X')).toBe('');
  });
});

describe('round trip through citation-js (property)', () => {
  /** Characters with meaning in TeX or BibTeX, TeX ligatures, and the word that separates names. */
  const tricky = fc.constantFrom(
    '{',
    '}',
    '\\',
    '&',
    '%',
    '$',
    '#',
    '_',
    '~',
    '^',
    '"',
    '@',
    ',',
    '=',
    '--',
    '---',
    "''",
    '``',
    ' and ',
    'AND',
    '\\par',
    '$x^2$',
    '\n',
    '\t',
    '\u0001',
    '\u00a0',
  );
  const text = fc
    .array(
      fc.oneof(
        tricky,
        fc.string({ unit: 'binary', maxLength: 6 }),
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        fc.string({ maxLength: 6 }),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(''));
  /** A name part that cannot be empty once affiliation and ORCID are stripped. */
  const family = fc
    .tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }), text)
    .map(([head, tail]) => `${head}${tail}`.replace(/[,[\]()]/g, ' '))
    .filter((name) => /[\p{L}\p{N}]/u.test(name));
  const author = fc
    .record({
      family,
      given: text,
      affiliation: fc.option(
        fc.string({ maxLength: 10 }).map((org) => org.replace(/[[\]]/g, '')),
        { nil: undefined },
      ),
    })
    .map(
      ({ family: surname, given, affiliation }) =>
        `${surname}, ${given.replace(/[[\]()]/g, ' ')}${affiliation === undefined ? '' : ` [${affiliation}]`}`,
    );
  const id = fc.stringMatching(/^[0-9A-Za-z]{1,12}$/);
  const day = fc
    .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
    .map((date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z'));

  /** CSL's rich-text formatting tags, which citation-js makes of \textbf, \emph and the like. */
  const withoutCslTags = (value: string) => value.replace(/<\/?(b|i|sub|sup|sc)>|<span style="[^"]*">|<\/span>/g, '');

  /** What a reader compares: text without control characters, whitespace collapsed. */
  const normalise = (value: string) =>
    value
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
      .replace(/\s+/g, ' ')
      .trim();

  it('reads back one entry with the same key, title, abstract and number of authors', () => {
    fc.assert(
      fc.property(id, text, text, fc.array(author, { maxLength: 5 }), day, (repoId, title, description, authors, published) => {
        const bibtex = recordToBibtex(record({ repo_id: repoId, title, description, authors, publication_date: published }), 'OSTI');
        const items = csl(bibtex);
        expect(items).toHaveLength(1);
        const [item] = items;
        expect(item!.id).toBe(`OSTI_${repoId}`);
        // Titles and abstracts are read through the text model first, as HTML would be;
        // citation-js gives LaTeX markup back as CSL's rich-text tags (\textbf → <b>).
        // An upstream placeholder ("NA", "None") is not cited at all.
        const cited = (text: string) => normalise(toSearchText(knownText(text) ?? ''));
        expect(normalise(withoutCslTags(item!.title ?? ''))).toBe(cited(title));
        expect(normalise(withoutCslTags(item!.abstract ?? ''))).toBe(cited(description));
        expect(item!.author ?? []).toHaveLength(authors.length);
        const date = new Date(published);
        expect(item!.issued).toEqual({ 'date-parts': [[date.getUTCFullYear(), date.getUTCMonth() + 1]] });
      }),
      { numRuns: 100 },
    );
  });
});
