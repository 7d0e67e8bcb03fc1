import { describe, expect, it } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { compileSearchModel } from '../deployments/search-model';
import { authorsShownFolded, detailFields, publicationLine, roleTexts } from './record-layout';
import { plainLine } from './record-text';

const dc1 = deploymentByKey('DC1')!;
const lit = deploymentByKey('LIT')!;
const enr = deploymentByKey('ENR')!;
const mm = deploymentByKey('MM')!;

/** DC1 1562055 as the API serves it (data/real/dc-v1-plasma-lab-209.json), authors shortened. */
const alfven: ApiRecord = {
  repo_id: '1562055',
  title: 'Suppression of Alfv&eacute;n modes on NSTX-U with outboard beam injection',
  authors: ['Fredrickson, E D', 'Belova, E V'],
  doi: 'https://doi.org/10.11578/1562055',
  product_type: 'Dataset',
  publication_date: '2017-06-01T00:00:00Z',
  entry_date: '2019-09-19T00:00:00Z',
  research_orgs: ['Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)'],
  sponsor_orgs: ['U. S. Department of Energy'],
  agency_contract_number: 'AC02-09CH11466',
  site_ownership_code: 'PPPL',
  product_number: 'None',
  dataset_size: 0,
  related_identifiers: ['DOI; IsReferencedBy; 10.1103/PhysRevLett.118.265001'],
  site_url: 'http://arks.princeton.edu/ark:/88435/dsp017h149s49b',
  language: 'English',
};

const names = (deployment: Deployment, record: ApiRecord) => detailFields(deployment, record).map((field) => field.name);

describe('the record page layout', () => {
  it('lists the details after the lead, identifiers and codes last, leaving out unknown values', () => {
    expect(names(dc1, alfven)).toEqual([
      'publication_date',
      'entry_date',
      'language',
      'research_orgs',
      'sponsor_orgs',
      'product_type',
      'site_url',
      'repo_id',
      'agency_contract_number',
      'site_ownership_code',
    ]);
  });

  it('takes the order from the table for every deployment: nothing the lead shows, codes after descriptions', () => {
    for (const key of ['LIT', 'DC1', 'DC0', 'MM', 'PAT', 'ENR']) {
      const deployment = deploymentByKey(key)!;
      const details = compileSearchModel(deployment).recordPage.details;
      for (const shownAbove of ['title', 'authors', 'description', 'doi', 'journal_name', 'journal_volume', 'links', 'related_identifiers'])
        expect(details, key).not.toContain(shownAbove);
      expect(details, key).toContain('publication_date');
      const firstCode = details.indexOf('repo_id');
      expect(details.slice(firstCode), key).not.toContain('subjects');
      expect(details.slice(0, firstCode), key).not.toContain('report_number');
    }
    expect(compileSearchModel(enr).recordPage.details.slice(-6)).toEqual([
      'announcement_date',
      'repo_id',
      'agency_contract_number',
      'report_number',
      'submitting_site',
      'other_identifying_numbers',
    ]);
  });

  it('follows a role taken away in the table: the journal then is a detail like any other', () => {
    const journalless = {
      ...mm,
      fields: mm.fields.map((field) => (field.name === 'journal_name' ? { ...field, role: undefined } : field)),
    };
    expect(compileSearchModel(journalless).recordPage.details).toContain('journal_name');
    expect(compileSearchModel(mm).recordPage.details).not.toContain('journal_name');
    expect(publicationLine(journalless, { repo_id: '3', journal_name: 'Joule' })).toBeUndefined();
  });

  it('writes a journal article’s line from its journal, volume, issue and year, without a publisher', () => {
    const article: ApiRecord = {
      repo_id: '1',
      product_type: 'Journal Article',
      journal_name: 'Physical Review Letters',
      journal_volume: '118',
      journal_issue: '26',
      publication_date: '2017-06-30T00:00:00Z',
      research_orgs: ['Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)'],
    };
    const line = publicationLine(lit, article)!;
    expect(plainLine(line.venue!)).toBe('Physical Review Letters');
    expect(line).toMatchObject({ numbering: '118(26)', year: 2017 });
    expect(line.publisher).toBeUndefined();
    expect(publicationLine(lit, { ...article, journal_volume: 'None' })?.numbering).toBe('(26)');
  });

  it('names a dataset’s issuing organisation, as its citation does, and the year', () => {
    expect(publicationLine(dc1, alfven)).toEqual({ year: 2017, publisher: 'Princeton Plasma Physics Lab. (PPPL)' });
    expect(publicationLine(dc1, { ...alfven, publisher: 'Zenodo' })?.publisher).toBe('Zenodo');
    expect(publicationLine(dc1, { repo_id: '2', publication_date: 'soon', product_type: 'Dataset' })).toBeUndefined();
  });

  it('reads the creators by role, placeholders left out', () => {
    expect(roleTexts(dc1, { ...alfven, authors: ['Fredrickson, E D', 'None', ''] }, 'authors').map((text) => plainLine(text))).toEqual([
      'Fredrickson, E D',
    ]);
  });

  it('folds long author lists only when enough is folded away', () => {
    expect([1, 11, 12, 13, 99].map(authorsShownFolded)).toEqual([1, 11, 12, 10, 10]);
  });
});
