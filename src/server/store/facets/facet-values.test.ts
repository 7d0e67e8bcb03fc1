import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
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

  it('keeps one organisation per record whatever its case and punctuation', () => {
    const rows = rowsOf({
      research_orgs: [
        'Argonne National Laboratory',
        'ARGONNE NATIONAL LABORATORY.',
        'Argonne  National Laboratory',
        'Argonne National Lab',
      ],
    });
    expect(rows).toEqual([
      ['facet:research_org', 'Argonne National Laboratory'],
      ['facet:research_org', 'Argonne National Lab'],
    ]);
  });

  it('keeps one subject per record whatever its case and number, and one author per surname and initials', () => {
    expect(rowsOf({ subjects: ['Tokamaks', 'tokamak', 'TOKAMAK', 'plasma physics'] })).toEqual([
      ['facet:subject', 'Tokamaks'],
      ['facet:subject', 'plasma physics'],
    ]);
    expect(rowsOf({ authors: ['Fredrickson, E.D. [PPPL]', 'Fredrickson, E D', 'Fredrickson, Eric', 'Diallo, A.'] })).toEqual([
      ['facet:author', 'Fredrickson, E.D.'],
      ['facet:author', 'Fredrickson, Eric'],
      ['facet:author', 'Diallo, A.'],
    ]);
  });

  it('reads values as a reader sees them', () => {
    expect(rowsOf({ subjects: ['36 MATERIALS SCIENCE &amp; <i>ENGINEERING</i>'] })).toEqual([
      ['facet:subject', '36 MATERIALS SCIENCE & ENGINEERING'],
    ]);
  });
});
