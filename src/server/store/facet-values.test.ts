import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { facetRowsOf } from './facet-values';

const lit = deploymentByKey('LIT')!;
const rowsOf = (record: Record<string, unknown>) => facetRowsOf(lit, { record: { repo_id: '1', ...record } });

describe('facetRowsOf', () => {
  it('keeps one value per group of a caseless facet, as first seen', () => {
    expect(rowsOf({ language: ['English', 'english', 'ENGLISH ', 'French'] })).toEqual([
      ['facet:language', 'English'],
      ['facet:language', 'French'],
    ]);
  });

  it('keeps values that differ in case where the facet is a phrase, and drops exact repeats', () => {
    const rows = rowsOf({ research_orgs: ['Argonne National Laboratory', 'ARGONNE NATIONAL LABORATORY', 'Argonne  National Laboratory'] });
    expect(rows).toEqual([
      ['facet:research_org', 'Argonne National Laboratory'],
      ['facet:research_org', 'ARGONNE NATIONAL LABORATORY'],
    ]);
  });

  it('reads values as a reader sees them', () => {
    expect(rowsOf({ subjects: ['36 MATERIALS SCIENCE &amp; <i>ENGINEERING</i>'] })).toEqual([
      ['facet:subject', '36 MATERIALS SCIENCE & ENGINEERING'],
    ]);
  });
});
