import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dc1 } from '../deployments/dc1';
import type { ApiRecord } from '../deployments/registry';
import { completeness, groupByKeys, groupWorks, representativeFirst, workKeys } from './work-key';

/** Two shipped DC1 records (data/real, 1342397 and 1342140): one dataset entered twice upstream, each with a DOI of its own. */
const armShared = {
  title: 'ARM: CO2 Flux Data: 4m samples',
  authors: ['Billesbach, Dave [ORNL]', 'Chan, Stephen', 'Biraud, Sebastien'],
  publication_date: '2015-07-22T04:00:00Z',
  description: 'CO2 Flux Data: 4m samples',
  product_type: 'Dataset',
  site_ownership_code: 'ORNL-ARM',
  country_publication: 'United States',
  language: 'English',
  product_number: 'null',
};
const arm1342397: ApiRecord = { ...armShared, repo_id: '1342397', doi: 'https://doi.org/10.5439/1342397' };
const arm1342140: ApiRecord = {
  ...armShared,
  repo_id: '1342140',
  doi: 'https://doi.org/10.5439/1342140',
  contributor_org: 'PNNL, BNL,ANL,ORNL',
};
/** Shipped DC1 2479885 and 2476482: the same DOI, titles and authors written differently. */
const rheology2479885: ApiRecord = {
  repo_id: '2479885',
  title: 'Rheology Investigations with Sludges from Metro Vancouver',
  authors: ['Schmidt, Andrew [Pacific Northwest National Laboratory (PNNL), Richland, WA (United States); Battelle Memorial Institute]'],
  publication_date: '2024-05-15T04:00:00Z',
  doi: 'https://doi.org/10.25584/2476482',
};
const rheology2476482: ApiRecord = {
  repo_id: '2476482',
  title: 'Rheology Investigations with Sludges from Metro Vancouver (Adjusted)',
  authors: ['Burns, Carol AM [Pacific Northwest National Laboratory (PNNL), Richland, WA (United States)]'],
  publication_date: '2024-05-15T04:00:00Z',
  doi: '10.25584/2476482',
};

const ids = (groups: readonly (readonly ApiRecord[])[]) => groups.map((group) => group.map((record) => record.repo_id));

describe('workKeys', () => {
  it('gives the same title, first author and year one key, whatever the case, punctuation, markup and affiliation', () => {
    const other: ApiRecord = {
      repo_id: 'x',
      title: 'arm &ndash; <i>co2</i> flux data, 4M samples',
      authors: ['BILLESBACH, D.'],
      publication_date: '2015-01-01T00:00:00Z',
    };
    const key = (record: ApiRecord) => workKeys(dc1, record).find((k) => k.startsWith('work '));
    expect(key(other)).toBe(key(arm1342397));
    expect(key(arm1342140)).toBe(key(arm1342397));
  });

  it('keeps apart another year, another first author or another title', () => {
    const key = (record: ApiRecord) => workKeys(dc1, record).find((k) => k.startsWith('work '));
    expect(key({ ...arm1342397, publication_date: '2016-07-22T04:00:00Z' })).not.toBe(key(arm1342397));
    expect(key({ ...arm1342397, authors: ['Chan, Stephen', 'Billesbach, Dave'] })).not.toBe(key(arm1342397));
    expect(key({ ...arm1342397, title: 'ARM: CO2 Flux Data: 2m samples' })).not.toBe(key(arm1342397));
  });

  it('reads a DOI bare or as a resolver URL, in any case', () => {
    expect(workKeys(dc1, rheology2479885)[0]).toBe(workKeys(dc1, { ...rheology2476482, doi: 'DOI:10.25584/2476482' })[0]);
  });

  it('gives no title key where the title, the first author or the year is missing', () => {
    expect(workKeys(dc1, { repo_id: 'a', title: 'ARM: CO2 Flux Data: 4m samples', authors: [], publication_date: '2015-07-22' })).toEqual(
      [],
    );
    expect(workKeys(dc1, { repo_id: 'a', title: 'None', authors: ['Billesbach, Dave'], publication_date: '2015-07-22' })).toEqual([]);
    expect(workKeys(dc1, { repo_id: 'a', title: 'Data', authors: ['Billesbach, Dave'], publication_date: '' })).toEqual([]);
  });
});

describe('groupWorks', () => {
  it('groups the shipped duplicates: the ARM dataset by title, author and year, the rheology dataset by DOI', () => {
    const other: ApiRecord = { repo_id: '1', title: 'Something else', authors: ['Billesbach, Dave'], publication_date: '2015-07-22' };
    const groups = groupWorks(dc1, [arm1342397, other, rheology2479885, arm1342140, rheology2476482]);
    expect(ids(groups)).toEqual([['1342140', '1342397'], ['1'], ['2479885', '2476482']]);
  });

  it('joins records through any shared key, transitively', () => {
    const viaTitle: ApiRecord = { ...arm1342397, repo_id: 'c', doi: '10.1/c' };
    const viaDoi: ApiRecord = { repo_id: 'd', title: 'Unrelated title', doi: '10.1/C' };
    const records = [viaDoi, arm1342397, viaTitle];
    expect(ids(groupByKeys(records, (record) => workKeys(dc1, record)))).toEqual([['d', '1342397', 'c']]);
    // As a work, its most complete version leads.
    expect(ids(groupWorks(dc1, records))).toEqual([['1342397', 'd', 'c']]);
  });

  it('puts every record in exactly one group, groups in the order of their first record', () => {
    const keyArb = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 3 });
    fc.assert(
      fc.property(fc.array(keyArb, { maxLength: 30 }), (keys) => {
        const items = keys.map((itemKeys, index) => ({ index, itemKeys }));
        const groups = groupByKeys(items, (item) => item.itemKeys);
        const flat = groups.flat().map((item) => item.index);
        expect([...flat].sort((a, b) => a - b)).toEqual(items.map((item) => item.index));
        const firsts = groups.map((group) => group[0]!.index);
        expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
        for (const group of groups) {
          // Members stay in order, and no key is shared across two groups.
          expect(group.map((item) => item.index)).toEqual(group.map((item) => item.index).sort((a, b) => a - b));
        }
        const keyGroup = new Map<string, number>();
        groups.forEach((group, at) => {
          for (const item of group)
            for (const key of item.itemKeys) {
              expect(keyGroup.get(key) ?? at).toBe(at);
              keyGroup.set(key, at);
            }
        });
      }),
    );
  });
});

describe('representativeFirst', () => {
  it('puts the record that fills the most fields first, the others in rank order', () => {
    expect(completeness(dc1, arm1342140)).toBeGreaterThan(completeness(dc1, arm1342397));
    expect(ids([representativeFirst(dc1, [arm1342397, rheology2476482, arm1342140])])).toEqual([['1342140', '1342397', '2476482']]);
  });

  it('keeps the first of equally complete records first', () => {
    expect(ids([representativeFirst(dc1, [arm1342397, { ...arm1342397, repo_id: 'twin' }])])).toEqual([['1342397', 'twin']]);
  });

  it('does not count placeholders as filled', () => {
    // `product_number: "null"` is the upstream's placeholder (known-values.ts).
    expect(completeness(dc1, arm1342397)).toBe(completeness(dc1, { ...arm1342397, product_number: '' }));
  });
});
