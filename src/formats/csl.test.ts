import { Cite } from '@citation-js/core';
import '@citation-js/plugin-csl';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deploymentByKey, deployments, type ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { cslItemSchema } from './csl-item';
import { cslName, organisationName, recordsToCslJson, recordToCsl } from './csl';

function must(key: string): Deployment {
  const deployment = deploymentByKey(key);
  if (!deployment) throw new Error(key);
  return deployment;
}

const lit = must('LIT');
const dc1 = must('DC1');

/** Shaped like the harvested upstream records (data/real), mapped to the spec's names. */
const litRecord: ApiRecord = {
  repo_id: '1828290',
  title: 'A KBase Case Study on Genome-wide Transcriptomics and Plant Primary Metabolism in Sorghum',
  authors: [
    'Kumari, Sunita [Cold Spring Harbor Laboratory] (ORCID:0000000123456789)',
    'Bell, R.E. [Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)] (ORCID:000000019544498X)',
    'Muñoz-Sabater, Joaquín (ORCID:000000025997290X)',
  ],
  subjects: ['59 BASIC BIOLOGICAL SCIENCES', 'transcriptomics, metabolism, sorghum'],
  description: 'A better understanding of the genetic and metabolic mechanisms.',
  publisher: '',
  country_publication: 'United States',
  publication_date: '2021-11-01T00:00:00Z',
  entry_date: '2021-12-16T00:00:00Z',
  doi: 'https://doi.org/10.25982/101788.79/1828290',
  language: 'English',
  research_orgs: ['Cold Spring Harbor Laboratory Cold Spring Harbor, NY (United States)'],
  sponsor_orgs: ['USDOE Office of Science (SC), Biological and Environmental Research (BER)'],
  product_type: 'Dataset',
  links: [
    { href: 'https://www.osti.gov/biblio/1828290', rel: 'citation' },
    { href: 'https://www.osti.gov/servlets/purl/1828290', rel: 'fulltext' },
  ],
};

describe('recordToCsl', () => {
  it('strips affiliations and ORCIDs from authors, keeping family and given names', () => {
    expect(recordToCsl(lit, litRecord).author).toEqual([
      { family: 'Kumari', given: 'Sunita' },
      { family: 'Bell', given: 'R. E.' },
      { family: 'Muñoz-Sabater', given: 'Joaquín' },
    ]);
  });

  it('maps the bibliographic fields of a real-shaped dataset record', () => {
    const item = recordToCsl(lit, litRecord);
    expect(item).toMatchObject({
      id: 'lit-1828290',
      type: 'dataset',
      title: 'A KBase Case Study on Genome-wide Transcriptomics and Plant Primary Metabolism in Sorghum',
      issued: { 'date-parts': [[2021, 11, 1]] },
      DOI: '10.25982/101788.79/1828290',
      URL: 'https://www.osti.gov/biblio/1828290',
      // No publisher on the record: the research organisation issued the dataset, named without its city.
      publisher: 'Cold Spring Harbor Laboratory',
      genre: 'Data set',
      language: 'English',
      keyword: '59 BASIC BIOLOGICAL SCIENCES, transcriptomics, metabolism, sorghum',
    });
    expect(cslItemSchema.parse(item)).toEqual(item);
    // A country is not the place of publication a style means.
    expect(item['publisher-place']).toBeUndefined();
  });

  it('writes titles as CSL rich text: entities decoded, sub/superscripts and italics kept, links and breaks unwrapped', () => {
    const title = (value: string) => recordToCsl(dc1, { repo_id: '1', title: value }).title;
    expect(title('Suppression of Alfv&eacute;n modes')).toBe('Suppression of Alfvén modes');
    expect(title('CO<sub>2</sub> at 10<sup>13</sup> cm<sup>-3</sup> in <em>E. coli</em>')).toBe(
      'CO<sub>2</sub> at 10<sup>13</sup> cm<sup>-3</sup> in <i>E. coli</i>',
    );
    // Markup outside the text model's allow-list is text, as on the record page.
    expect(title('<a href="javascript:x()">A</a><br>B <span onclick="x()">C</span>')).toBe('A B <span onclick="x()">C</span>');
  });

  it.each([
    ['Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)', 'Princeton Plasma Physics Lab. (PPPL)'],
    ['Cold Spring Harbor Laboratory Cold Spring Harbor, NY (United States)', 'Cold Spring Harbor Laboratory'],
    ['University of Connecticut, Storrs, Connecticut, USA', 'University of Connecticut'],
    [
      'NREL-DATA (National Renewable Energy Laboratory - Data (NREL-DATA), Golden, CO (United States))',
      'NREL-DATA (National Renewable Energy Laboratory - Data (NREL-DATA))',
    ],
    ['DOE Geothermal Data Repository', 'DOE Geothermal Data Repository'],
  ])('names the organisation %s as %s', (raw, name) => {
    expect(organisationName(raw)).toBe(name);
  });

  it('fills journal fields and the report number of a journal article', () => {
    const item = recordToCsl(lit, {
      repo_id: '5',
      title: 'Edge transport in NSTX-U',
      authors: ['Scotti, F.'],
      product_type: 'Journal Article',
      journal_name: 'Review of Scientific Instruments',
      journal_volume: '87',
      journal_issue: '11',
      report_number: 'PPPL-5312',
      publisher: 'AIP Publishing',
      doi: '10.1063/1.4963146',
    });
    expect(item).toMatchObject({
      type: 'article-journal',
      'container-title': 'Review of Scientific Instruments',
      volume: '87',
      issue: '11',
      number: 'PPPL-5312',
      publisher: 'AIP Publishing',
      DOI: '10.1063/1.4963146',
    });
  });

  it('leaves out a dataset’s submission number and falls back to site_url when there is no citation link', () => {
    const item = recordToCsl(dc1, {
      repo_id: '2368548',
      product_number: '1608',
      site_url: 'https://gdr.openei.org/submissions/1608',
      links: [],
    });
    expect(item).toMatchObject({ type: 'dataset', URL: 'https://gdr.openei.org/submissions/1608' });
    expect(item.number).toBeUndefined();
  });

  it('never cites a non-http URL', () => {
    const item = recordToCsl(lit, { repo_id: '1', links: [{ rel: 'citation', href: 'javascript:alert(1)' }] });
    expect(item.URL).toBeUndefined();
  });

  it('credits the research organisation as a literal author when no person is named', () => {
    const dc0 = must('DC0');
    const item = recordToCsl(dc0, { repo_id: '7', research_org: 'Princeton Plasma Physics Lab.', authors: [] });
    expect(item.author).toEqual([{ literal: 'Princeton Plasma Physics Lab.' }]);
    // ...and does not name it a second time as publisher.
    expect(item.publisher).toBeUndefined();
  });

  it('keeps an organisation listed among the authors as one literal name', () => {
    expect(cslName('ATLAS Collaboration')).toEqual({ literal: 'ATLAS Collaboration' });
    expect(cslName('Argonne National Laboratory [ANL, Lemont, IL]')).toEqual({ literal: 'Argonne National Laboratory' });
    expect(cslName('Smith, J. [Org, City]')).toEqual({ family: 'Smith', given: 'J.' });
    expect(cslName(' [Org only] ')).toBeUndefined();
  });

  it.each([
    ['Journal Article', 'article-journal'],
    ['Technical Report', 'report'],
    ['Dataset', 'dataset'],
    ['Collection', 'dataset'],
    ['Patent', 'patent'],
    ['Patent Application', 'patent'],
    ['Thesis/Dissertation', 'thesis'],
    ['Conference', 'paper-conference'],
    ['Book', 'book'],
    ['Video', 'motion_picture'],
    ['Audio', 'song'],
    ['Presentation', 'speech'],
    ['Software', 'software'],
    ['Interactive Resource', 'webpage'],
    ['Miscellaneous', 'document'],
  ])('types a %s as %s', (productType, type) => {
    expect(recordToCsl(lit, { repo_id: '1', product_type: productType }).type).toBe(type);
  });

  it('types a record without product type from its deployment', () => {
    expect(recordToCsl(dc1, { repo_id: '1' }).type).toBe('dataset');
    expect(recordToCsl(lit, { repo_id: '1', journal_name: 'Nature' }).type).toBe('article-journal');
    expect(recordToCsl(lit, { repo_id: '1' }).type).toBe('document');
  });

  it('writes a valid item for any record of any deployment (property)', () => {
    const text = fc.option(fc.string(), { nil: null });
    fc.assert(
      fc.property(
        fc.constantFrom(...deployments),
        fc.record({
          repo_id: fc.stringMatching(/^[0-9]{1,8}$/),
          title: text,
          authors: fc.array(fc.string(), { maxLength: 3 }),
          product_type: text,
          publication_date: fc.option(fc.constantFrom('2024-04-20T04:00:00Z', '2024-02-30T00:00:00Z', 'soon'), { nil: null }),
          doi: text,
        }),
        (deployment, record) => {
          expect(cslItemSchema.safeParse(recordToCsl(deployment, record)).success).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('recordsToCslJson', () => {
  it('is one JSON array that citation-js renders as the record’s citation', () => {
    const json = recordsToCslJson(lit, [litRecord, { repo_id: '2', title: 'Second', authors: ['Doe, Jane'] }]);
    const items = JSON.parse(json) as unknown[];
    expect(items).toHaveLength(2);
    const apa = new Cite(items).format('bibliography', { format: 'text', template: 'apa', lang: 'en-US' });
    expect(apa).toContain('Kumari, S., Bell, R. E., & Muñoz-Sabater, J. (2021).');
    expect(apa).toContain('https://doi.org/10.25982/101788.79/1828290');
    expect(apa).not.toMatch(/ORCID|\[Cold Spring/);
  });

  it('is an empty array for no records', () => {
    expect(JSON.parse(recordsToCslJson(lit, []))).toEqual([]);
  });
});
