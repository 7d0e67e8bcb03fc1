import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { offeredFacets, toggledEntries } from './facet-selection';

describe('facet selection', () => {
  const entries: [string, string][] = [
    ['q', 'wind'],
    ['language', 'English'],
    ['page', '3'],
  ];

  it('replaces or removes the value’s parameters and starts again at page 1', () => {
    expect(toggledEntries(entries, { language: 'German' }, true)).toEqual([
      ['q', 'wind'],
      ['language', 'German'],
    ]);
    expect(toggledEntries(entries, { language: 'English' }, false)).toEqual([['q', 'wind']]);
    expect(toggledEntries(entries, { publication_date_start: '01/01/2015', publication_date_end: '12/31/2015' }, true)).toEqual([
      ['q', 'wind'],
      ['language', 'English'],
      ['publication_date_start', '01/01/2015'],
      ['publication_date_end', '12/31/2015'],
    ]);
  });

  it('offers only facets with known values, and no extension parameter, to a server without /facets', () => {
    const lit = deploymentByKey('LIT')!;
    expect(offeredFacets(lit, true)).toBe(lit.facets);
    expect(offeredFacets(lit, false).map((facet) => facet.name)).toEqual(['has_fulltext']);
  });
});
