import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deploymentByKey, deployments, type ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { recordsToRis, recordToRis } from './ris';
import { parseRis } from './ris-reader';

function must(key: string): Deployment {
  const deployment = deploymentByKey(key);
  if (!deployment) throw new Error(key);
  return deployment;
}

const values = (entries: [string, string][], tag: string) => entries.filter(([name]) => name === tag).map(([, value]) => value);

const lit = must('LIT');

describe('recordToRis', () => {
  const record: ApiRecord = {
    repo_id: '1828290',
    title: 'A KBase Case Study on Genome-wide Transcriptomics\nin Sorghum',
    authors: [
      'Kumari, Sunita [Cold Spring Harbor Laboratory Cold Spring Harbor, NY (United States)] (ORCID:0000000123456789)',
      'Bell, R.E. [Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)]',
    ],
    subjects: ['59 BASIC BIOLOGICAL SCIENCES', 'transcriptomics, metabolism, sorghum'],
    description: 'Drought stress in Sorghum.',
    publisher: 'Cold Spring Harbor Laboratory',
    country_publication: 'United States',
    publication_date: '2021-11-01T00:00:00Z',
    doi: 'https://doi.org/10.25982/101788.79/1828290',
    product_type: 'Journal Article',
    journal_name: 'Plant Direct',
    journal_volume: '5',
    journal_issue: '11',
    report_number: 'BNL-222-2021',
    language: 'English',
    links: [
      { rel: 'fulltext', href: 'https://www.osti.gov/servlets/purl/1828290' },
      { rel: 'citation', href: 'https://www.osti.gov/biblio/1828290' },
    ],
  };

  it('writes TY first and ER last, with the record’s fields in between', () => {
    const [entries] = parseRis(recordToRis(lit, record));
    expect(entries![0]).toEqual(['TY', 'JOUR']);
    expect(entries!.at(-1)).toEqual(['ER', '']);
    expect(values(entries!, 'TI')).toEqual(['A KBase Case Study on Genome-wide Transcriptomics in Sorghum']);
    expect(values(entries!, 'AU')).toEqual(['Kumari, Sunita', 'Bell, R.E.']);
    expect(values(entries!, 'PY')).toEqual(['2021']);
    expect(values(entries!, 'DA')).toEqual(['2021/11/01/']);
    expect(values(entries!, 'DO')).toEqual(['10.25982/101788.79/1828290']);
    expect(values(entries!, 'UR')).toEqual(['https://www.osti.gov/biblio/1828290']);
    expect(values(entries!, 'KW')).toEqual(['59 BASIC BIOLOGICAL SCIENCES', 'transcriptomics, metabolism, sorghum']);
    expect(values(entries!, 'JO')).toEqual(['Plant Direct']);
    expect(values(entries!, 'VL')).toEqual(['5']);
    expect(values(entries!, 'IS')).toEqual(['11']);
    // M1 would be the issue to Zotero: a journal article's report number is a labelled M2 (Extra) line.
    expect(values(entries!, 'M1')).toEqual([]);
    expect(values(entries!, 'M2')).toEqual(['Report Number: BNL-222-2021']);
    expect(values(entries!, 'PB')).toEqual(['Cold Spring Harbor Laboratory']);
    expect(values(entries!, 'CY')).toEqual(['United States']);
    expect(values(entries!, 'AB')).toEqual(['Drought stress in Sorghum.']);
    expect(values(entries!, 'ID')).toEqual(['lit-1828290']);
  });

  it('keeps a report’s or patent’s number in SN, where reference managers look for it', () => {
    const [report] = parseRis(recordToRis(lit, { repo_id: '1', product_type: 'Technical Report', report_number: 'ANL-23/45' }));
    expect(report![0]).toEqual(['TY', 'RPRT']);
    expect(values(report!, 'SN')).toEqual(['ANL-23/45']);
    const pat = must('PAT');
    const [patent] = parseRis(recordToRis(pat, { repo_id: '2', product_type: 'Patent', report_number: 'US 11,234,567 B2' }));
    expect(patent![0]).toEqual(['TY', 'PAT']);
    expect(values(patent!, 'SN')).toEqual(['US 11,234,567 B2']);
  });

  it.each([
    ['Journal Article', 'JOUR'],
    ['Technical Report', 'RPRT'],
    ['Dataset', 'DATA'],
    ['Collection', 'DATA'],
    ['Patent', 'PAT'],
    ['Patent Application', 'PAT'],
    ['Thesis/Dissertation', 'THES'],
    ['Conference', 'CONF'],
    ['Book', 'BOOK'],
    ['Video', 'VIDEO'],
    ['Audio', 'SOUND'],
    ['Software', 'COMP'],
    ['Program Document', 'GEN'],
  ])('types a %s as %s', (productType, type) => {
    const [entries] = parseRis(recordToRis(lit, { repo_id: '1', product_type: productType }));
    expect(entries![0]).toEqual(['TY', type]);
  });

  it('credits the research organisation when no person is named (DC0’s singular field too)', () => {
    const dc0 = must('DC0');
    const [entries] = parseRis(recordToRis(dc0, { repo_id: '9', research_org: 'Princeton Plasma Physics Lab.' }));
    expect(values(entries!, 'AU')).toEqual(['Princeton Plasma Physics Lab.']);
    expect(entries![0]).toEqual(['TY', 'DATA']);
  });
});

describe('recordsToRis', () => {
  const awkward = fc.string({
    unit: fc.oneof(fc.constantFrom('\r', '\n', '\r\n', 'ER  - ', 'TY  - ', '\u0000', ' '), fc.string({ unit: 'grapheme', maxLength: 3 })),
  });
  const recordArbitrary = fc.record({
    repo_id: fc.stringMatching(/^[0-9]{1,8}$/),
    title: fc.option(awkward, { nil: undefined }),
    authors: fc.array(awkward, { maxLength: 4 }),
    subjects: fc.array(awkward, { maxLength: 3 }),
    description: fc.option(awkward, { nil: undefined }),
    product_type: fc.option(awkward, { nil: undefined }),
    publication_date: fc.option(fc.constantFrom('2024-04-20T04:00:00Z', 'not a date', ''), { nil: undefined }),
  });

  it('gives every record a TY and an ER, whatever its values hold (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...deployments), fc.array(recordArbitrary, { maxLength: 5 }), (deployment, records) => {
        const parsed = parseRis(recordsToRis(deployment, records));
        expect(parsed).toHaveLength(records.length);
        parsed.forEach((entries, index) => {
          expect(entries[0]![0]).toBe('TY');
          expect(entries.at(-1)![0]).toBe('ER');
          expect(values(entries, 'ID')).toEqual([`${deployment.slug}-${records[index]!.repo_id}`]);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('separates records with a blank line so pages concatenate', () => {
    const one = recordsToRis(lit, [{ repo_id: '1' }]);
    const two = recordsToRis(lit, [{ repo_id: '2' }]);
    expect(recordsToRis(lit, [{ repo_id: '1' }, { repo_id: '2' }])).toBe(one + two);
    expect(one).toBe('TY  - GEN\r\nID  - lit-1\r\nER  - \r\n\r\n');
  });
});

describe('RIS of real-world gaps and demo records', () => {
  const dc1 = must('DC1');
  it('names the issuing organisation as PB, and writes no placeholder', () => {
    const [entries] = parseRis(
      recordToRis(dc1, {
        repo_id: '9',
        title: 'Data',
        authors: ['Doe, J.'],
        product_type: 'Dataset',
        product_number: 'None',
        research_orgs: ['Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)'],
      }),
    );
    expect(values(entries!, 'PB')).toEqual(['Princeton Plasma Physics Lab. (PPPL)']);
    expect(values(entries!, 'M1')).toEqual([]);
    expect(recordToRis(dc1, { repo_id: '9', title: 'Data', publisher: 'Not Available' })).not.toContain('Not Available');
  });

  it('notes a generated demo record in N1, and only that one', () => {
    const [real, generated] = parseRis(
      recordsToRis(
        lit,
        [
          { repo_id: '1', title: 'Real' },
          { repo_id: '2', title: 'Demo' },
        ],
        new Set(['2']),
      ),
    );
    expect(values(real!, 'N1')).toEqual([]);
    expect(values(generated!, 'N1')[0]).toMatch(/^Generated demo record/);
  });
});
