import { describe, expect, it } from 'vitest';
import type { FacetCriterion, FacetDef } from '../../deployments/facets';
import { deploymentByKey, deployments } from '../../deployments/registry';
import { facetParamNames, facetValueParams, isSelected, selectedValues } from '../facet-params';
import { criteriaChips } from '../search-description';
import { facetKinds, kindOf } from './registry';

const facetOf = (key: string, name: string) => {
  const deployment = deploymentByKey(key)!;
  return [deployment, deployment.facets.find((candidate) => candidate.name === name)!] as const;
};

/** A value each kind can express, for a facet without known values: the compiler asks a new kind for one. */
const sampleValues: { readonly [K in FacetCriterion['kind']]: (criterion: Extract<FacetCriterion, { kind: K }>) => string } = {
  exact: () => 'Some "Value" (X)',
  extension: () => 'Some "Value" (X)',
  'date-range': ({ unit }) => (unit === 'year' ? '2015' : '1990s'),
};

const sampleValue = (facet: FacetDef) =>
  facet.values?.[0] ?? (sampleValues[facet.criterion.kind] as (criterion: FacetCriterion) => string)(facet.criterion);

describe('facet kinds', () => {
  it('has one object per criterion kind of the deployment table', () => {
    const used = new Set(deployments.flatMap((deployment) => deployment.facets.map((facet) => facet.criterion.kind)));
    expect(Object.keys(facetKinds).sort()).toEqual([...used].sort());
  });

  it('reads back from a search the value it selected, for every facet of every deployment', () => {
    for (const deployment of deployments) {
      for (const facet of deployment.facets) {
        const value = sampleValue(facet);
        const params = facetValueParams(deployment, facet, value);
        expect(params, `${deployment.key} ${facet.name}`).toBeDefined();
        expect(Object.keys(params!), `${deployment.key} ${facet.name}`).toEqual(facetParamNames(facet));
        const entries = [['q', 'wind'], ...Object.entries(params!), ['page', '2']] as const;
        expect(selectedValues(deployment, facet, entries), `${deployment.key} ${facet.name}`).toEqual([value]);
        expect(selectedValues(deployment, facet, [['q', 'wind']]), `${deployment.key} ${facet.name}`).toEqual([]);
      }
    }
  });

  it('selects a year or decade as the whole days of its range, and reads only a whole range back', () => {
    const [lit, year] = facetOf('LIT', 'publication_year');
    const [enr, decade] = facetOf('ENR', 'publication_decade');
    expect(facetValueParams(lit, year, '2015')).toEqual({ publication_date_start: '01/01/2015', publication_date_end: '12/31/2015' });
    expect(facetValueParams(enr, decade, '1990s')).toEqual({ publication_date_start: '01-01-1990', publication_date_end: '12-31-1999' });
    expect(facetValueParams(lit, year, '15')).toBeUndefined();
    expect(facetValueParams(enr, decade, '1995')).toBeUndefined();
    // A range that is not one year (or decade) selects no value of the facet.
    const range: [string, string][] = [
      ['publication_date_start', '01/01/2015'],
      ['publication_date_end', '12/31/2016'],
    ];
    expect(selectedValues(lit, year, range)).toEqual([]);
    expect(selectedValues(lit, year, [['publication_date_start', '01/01/2015']])).toEqual([]);
    expect(selectedValues(lit, facetOf('LIT', 'publication_decade')[1], range)).toEqual([]);
  });

  it('reads an exact or extension value back in the case the search gives it, as the parameter matches any case', () => {
    const [lit, language] = facetOf('LIT', 'language');
    expect(selectedValues(lit, language, [['language', ' english ']])).toEqual(['english']);
    const [dc1, productType] = facetOf('DC1', 'product_type');
    expect(selectedValues(dc1, productType, [['product_type', 'Dataset']])).toEqual(['Dataset']);
    expect(isSelected([['language', 'English']], { language: 'english' })).toBe(true);
    expect(isSelected([['language', 'English']], { language: 'German' })).toBe(false);
  });

  it('says where the store counts each kind: stored values, or the records’ years grouped', () => {
    const count = (key: string, name: string) => {
      const [, facet] = facetOf(key, name);
      return kindOf(facet).counts(facet.criterion);
    };
    expect(count('LIT', 'language')).toEqual({ from: 'values' });
    expect(count('LIT', 'product_type')).toEqual({ from: 'values' });
    const years = count('LIT', 'publication_year');
    const decades = count('LIT', 'publication_decade');
    expect(years.from === 'dates' && [years.field, years.group('1994')]).toEqual(['publication_date', '1994']);
    expect(decades.from === 'dates' && [decades.field, decades.group('1994')]).toEqual(['publication_date', '1990s']);
  });

  it('suggests counted values to the advanced form’s field of a spec parameter only', () => {
    const suggests = (key: string, name: string) => {
      const [, facet] = facetOf(key, name);
      return kindOf(facet).suggests(facet.criterion);
    };
    expect(suggests('LIT', 'language')).toBe('language');
    expect(suggests('LIT', 'product_type')).toBeUndefined();
    expect(suggests('LIT', 'publication_year')).toBeUndefined();
  });

  it('writes its chip words: a coded value as the table names it, any other as given', () => {
    const lit = deploymentByKey('LIT')!;
    const chips = criteriaChips(
      lit,
      [
        ['facet.has_fulltext', 'false'],
        ['facet.publication_decade', '2010s'],
        ['exclude.language', ' English '],
      ],
      'q',
    );
    expect(chips.map((chip) => chip.label)).toEqual(['Full text available: No', 'Publication decade: 2010s', 'Language: not English']);
  });
});
