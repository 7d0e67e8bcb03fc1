import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../deployments/registry';
import { facetValueParams } from './facet-params';

const facet = (key: string, name: string) => {
  const deployment = deploymentByKey(key)!;
  return [deployment, deployment.facets.find((candidate) => candidate.name === name)!] as const;
};

describe('facetValueParams', () => {
  it('turns a year into an inclusive publication-date range in the deployment date format', () => {
    expect(facetValueParams(...facet('LIT', 'publication_year'), '2015')).toEqual({
      publication_date_start: '01/01/2015',
      publication_date_end: '12/31/2015',
    });
    expect(facetValueParams(...facet('ENR', 'publication_decade'), '1990s')).toEqual({
      publication_date_start: '01-01-1990',
      publication_date_end: '12-31-1999',
    });
    expect(facetValueParams(...facet('LIT', 'publication_year'), '15')).toBeUndefined();
  });

  it('selects organisation values as written by their folded extension parameter', () => {
    expect(facetValueParams(...facet('MM', 'research_orgs'), 'Argonne National Laboratory (ANL)')).toEqual({
      research_org_name: 'Argonne National Laboratory (ANL)',
    });
    expect(facetValueParams(...facet('LIT', 'research_org'), 'The "Best" Lab')).toEqual({ research_org_name: 'The "Best" Lab' });
  });

  it('passes exact and extension values through', () => {
    expect(facetValueParams(...facet('MM', 'mime_type'), 'mp4')).toEqual({ mime_type: 'mp4' });
    expect(facetValueParams(...facet('DC1', 'product_type'), 'Dataset')).toEqual({ product_type: 'Dataset' });
  });
});
