import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadStyleCatalog, resolveCitationStyle, StyleLoadError } from './style-catalog';
import { styleSearch } from './style-search';

/** The shipped index and style files, read as the browser fetches them. */
const shippedFile = (path: string) => readFile(new URL(`../../../public/${path}`, import.meta.url), 'utf8');
const catalog = await loadStyleCatalog(shippedFile);
const search = styleSearch(catalog.entries);
const titles = (query: string, limit = 5) => search.find(query, limit).matches.map((entry) => entry.title);

describe('finding a style of the CSL repository', () => {
  it('finds the Physical Review journals by words of their title, the whole title first', () => {
    const found = search.find('physical review', 25);
    expect(found.total).toBeGreaterThan(5);
    // Titles that begin with the words come before titles that only hold them.
    const begins = found.matches.map((entry) => entry.title.startsWith('Physical Review'));
    expect(begins.lastIndexOf(true)).toBeLessThan(begins.indexOf(false));
    expect(found.matches.map((entry) => entry.title)).toContain('Physical Review Letters');
    expect(titles('Physical Review Letters', 1)).toEqual(['Physical Review Letters']);
    // Words may be cut short and typed in any case.
    expect(titles('phys rev lett', 1)).toEqual(['Physical Review Letters']);
  });

  it('finds styles by field: chemistry brings the American Chemical Society, physics the APS', () => {
    const chemistry = search.find('chemistry', 5000);
    expect(chemistry.total).toBeGreaterThan(100);
    expect(chemistry.matches.map((entry) => entry.id)).toContain('american-chemical-society');
    expect(chemistry.matches.every((entry) => entry.fields.includes('chemistry') || /chem/i.test(entry.title + entry.id))).toBe(true);
    expect(search.find('physics', 5000).matches.map((entry) => entry.id)).toEqual(
      expect.arrayContaining(['american-physics-society', 'american-institute-of-physics', 'physical-review-letters']),
    );
  });

  it('puts the style whose title is the query first, and finds a style by its short title', () => {
    expect(titles('nature', 1)).toEqual(['Nature']);
    expect(titles('american chemical society', 3)).toContain('ACS Guide 2022 revision');
    expect(titles('Alfvén')).toEqual([]);
    // Diacritics are folded both ways.
    expect(search.find('zurcher hochschule', 5).matches.map((entry) => entry.id)).toContain(
      'zurcher-hochschule-fur-angewandte-wissenschaften-soziale-arbeit',
    );
  });

  it('finds nothing for an empty or punctuation-only query', () => {
    expect(search.find('', 10)).toEqual({ matches: [], total: 0 });
    expect(search.find(' ;: ', 10)).toEqual({ matches: [], total: 0 });
  });
});

describe('resolving a chosen style', () => {
  it('renders a dependent style with its parent’s file, under its own title', async () => {
    expect(await resolveCitationStyle('csl:physical-review-letters', shippedFile)).toEqual({
      kind: 'csl',
      id: 'csl:physical-review-letters',
      label: 'Physical Review Letters',
      template: 'repository:american-physics-society',
      file: 'csl-styles/american-physics-society.csl',
      locale: 'en-US',
    });
  });

  it('cites in the locale a style asks for, or the shipped one of its language', async () => {
    expect(await resolveCitationStyle('csl:nature', shippedFile)).toMatchObject({ label: 'Nature', locale: 'en-GB' });
    expect(catalog.localeFor('de')).toBe('de-AT');
    expect(catalog.localeFor('de-DE')).toBe('de-DE');
    expect(catalog.localeFor('xx-YY')).toBeUndefined();
  });

  it('says so when a style is not in the shipped set, and when the index cannot be read', async () => {
    await expect(resolveCitationStyle('csl:no-such-style', shippedFile)).rejects.toThrow(
      'The citation style no-such-style is not in the shipped set.',
    );
    await expect(resolveCitationStyle('csl:nature', async () => '<html>')).rejects.toBeInstanceOf(StyleLoadError);
    await expect(resolveCitationStyle('csl:nature', async () => '{"styles": 1}')).rejects.toThrow(
      'The list of citation styles could not be read.',
    );
  });
});
