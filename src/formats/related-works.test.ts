import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../deployments/registry';
import { recordToBibtex } from './bibtex';
import { recordToFullBibtex } from './bibtex-full';
import { recordToCsl } from './csl';
import { recordToRis } from './ris';
import { relatedWorks, relationLabel, workAsRecord } from './related-works';

const curated = (relation: string, fields: Record<string, unknown>) => `CURATED; ${relation}; ${JSON.stringify(fields)}`;

describe('related works', () => {
  it("reads DC1 1562055: the DOI and the upstream's curated reference become one typed relation", () => {
    const works = relatedWorks(
      [
        'DOI; IsReferencedBy; 10.1103/PhysRevLett.118.265001',
        curated('IsReferencedBy', {
          related_identifier: '10.1103/PhysRevLett.118.265001',
          related_identifier_type: 'DOI',
          osti_ids: [1346987, 1562055, 22929558],
          title: 'Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection',
          authors: 'Fredrickson, E. D.; Belova, E. V.; Battaglia, D. J.',
          source_name: ['Physical Review Letters'],
          publication_date: '2017-06-30T04:00:00Z',
          optional_data_json_string: ['{"journalIssue": "26", "journalVolume": "118"}'],
        }),
      ],
      '1562055',
    );
    expect(works).toEqual([
      {
        relation: 'IsReferencedBy',
        label: 'Is referenced by',
        identifierType: 'DOI',
        identifier: '10.1103/PhysRevLett.118.265001',
        reference: {
          title: 'Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection',
          authors: 'Fredrickson, E. D.; Belova, E. V.; Battaglia, D. J.',
          // Three is all the upstream keeps: the list may go on.
          authorsTruncated: true,
          journal: 'Physical Review Letters',
          volume: '118',
          issue: '26',
          year: 2017,
          published: '2017-06-30T04:00:00Z',
        },
        recordIds: ['1346987', '22929558'],
      },
    ]);
  });

  it('gives a curated work as a journal record of the articles catalog, which cites as a journal article with its DOI', () => {
    const lit = deploymentByKey('LIT')!;
    const [work] = relatedWorks([
      curated('IsReferencedBy', {
        related_identifier: '10.1103/PhysRevLett.118.265001',
        title: 'Suppression of Alfvén Modes',
        authors: 'Fredrickson, E. D.; Belova, E. V.',
        source_name: ['Physical Review Letters'],
        publication_date: '2017-06-30T04:00:00Z',
        optional_data_json_string: ['{"journalIssue": "26", "journalVolume": "118"}'],
      }),
    ]);
    const record = workAsRecord(work!, lit)!;
    expect(record).toMatchObject({
      title: 'Suppression of Alfvén Modes',
      authors: ['Fredrickson, E. D.', 'Belova, E. V.'],
      journal_name: 'Physical Review Letters',
      journal_volume: '118',
      journal_issue: '26',
      doi: 'https://doi.org/10.1103/PhysRevLett.118.265001',
    });
    const item = recordToCsl(lit, record);
    expect(item).toMatchObject({
      type: 'article-journal',
      'container-title': 'Physical Review Letters',
      volume: '118',
      issue: '26',
      DOI: '10.1103/PhysRevLett.118.265001',
      issued: { 'date-parts': [[2017, 6, 30]] },
    });
    expect(item.author).toEqual([
      { family: 'Fredrickson', given: 'E. D.' },
      { family: 'Belova', given: 'E. V.' },
    ]);
    // A bare identifier without a curated title is not enough to cite.
    expect(workAsRecord(relatedWorks(['DOI; References; 10.1/a'])[0]!, lit)).toBeUndefined();
  });

  it('reads the numbered authors and the journal kind where the authors string keeps fewer, and the optional data as a bare string', () => {
    // As in dc-v1-geothermal-and-more-250.json: no authors string, the optional data not in an array.
    const [work] = relatedWorks([
      curated('IsReferencedBy', {
        related_identifier: '10.3390/rs12020225',
        related_identifier_type: 'DOI',
        title: 'Geodetic Measurements and Numerical Models of Deformation at Coso Geothermal Field',
        source_name: ['Remote Sensing'],
        publication_date: '2020-01-01T05:00:00Z',
        optional_data_json_string:
          '{"journalIssue": "2", "journalVolume": "12", "author1LastName": "Reinisch", "author2LastName": "Ali", "author3LastName": "Cardiff", "author1FirstName": "Elena C.", "author2FirstName": "S. Tabrez", "author3FirstName": "Michael", "crossrefProductType": "journal"}',
      }),
    ]);
    expect(work!.reference).toMatchObject({
      authors: 'Reinisch, Elena C.; Ali, S. Tabrez; Cardiff, Michael',
      authorsTruncated: true,
      kind: 'journal',
      journal: 'Remote Sensing',
      volume: '12',
      issue: '2',
    });
    const [short] = relatedWorks([
      curated('References', {
        related_identifier: '10.1/b',
        title: 'Two authors',
        authors: 'One, A.; Two, B.',
        optional_data_json_string: ['{"author1LastName": "One", "author2LastName": "Two"}'],
      }),
    ]);
    // Fewer than three: the whole list.
    expect(short!.reference?.authorsTruncated).toBeUndefined();
  });

  it('cites a related journal article as one, its author list that may go on ending in et al.', () => {
    const lit = deploymentByKey('LIT')!;
    const [work] = relatedWorks([
      curated('IsReferencedBy', {
        related_identifier: '10.1103/PhysRevLett.118.265001',
        title: 'Suppression of Alfvén Modes',
        authors: 'Fredrickson, E. D.; Belova, E. V.; Battaglia, D. J.',
        source_name: ['Physical Review Letters'],
        publication_date: '2017-06-30T04:00:00Z',
        optional_data_json_string: ['{"journalIssue": "26", "journalVolume": "118", "crossrefProductType": "journal"}'],
      }),
    ]);
    const record = workAsRecord(work!, lit)!;
    expect(record).toMatchObject({
      product_type: 'Journal Article',
      authors: ['Fredrickson, E. D.', 'Belova, E. V.', 'Battaglia, D. J.', 'et al.'],
    });
    expect(recordToCsl(lit, record).author).toEqual([
      { family: 'Fredrickson', given: 'E. D.' },
      { family: 'Belova', given: 'E. V.' },
      { family: 'Battaglia', given: 'D. J.' },
      { literal: 'et al.' },
    ]);
    const full = recordToFullBibtex(lit, record, 'records');
    expect(full).toMatch(/^@article\{/);
    expect(full).toContain('author = {Fredrickson, E. D. and Belova, E. V. and Battaglia, D. J. and others}');
    expect(full).toContain('journal = {Physical Review Letters}');
    expect(full).toContain('volume = {118}');
    expect(full).toContain('number = {26}');
    expect(recordToBibtex(record, 'records')).toContain('author = {Fredrickson, E. D. and Belova, E. V. and Battaglia, D. J. and others}');
    // RIS has no way to say so: "et al." is no author.
    expect(recordToRis(lit, record).match(/^AU {2}- /gm)).toHaveLength(3);
  });

  it('keeps each relation apart, reads URLs, and skips what does not parse', () => {
    const works = relatedWorks([
      'DOI; References; 10.1/a',
      'DOI; IsCitedBy; 10.1/a',
      'URL; IsSupplementTo; https://example.org/x',
      'CURATED; References; {not json',
      'garbage',
      'None',
    ]);
    expect(works.map((work) => [work.label, work.identifierType, work.identifier])).toEqual([
      ['References', 'DOI', '10.1/a'],
      ['Is cited by', 'DOI', '10.1/a'],
      ['Is supplement to', 'URL', 'https://example.org/x'],
    ]);
    expect(relationLabel('HasPart')).toBe('Has part');
  });
});
