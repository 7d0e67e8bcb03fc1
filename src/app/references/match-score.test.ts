import { describe, expect, test } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../../deployments/registry';
import { assessMatch, describeFacts, titleQuery } from './match-score';
import type { ParsedReference } from './reference-input';
import { formattedFacts } from './reference-text';

const dc1 = deploymentByKey('DC1')!;
const lit = deploymentByKey('LIT')!;
const pat = deploymentByKey('PAT')!;

/** A shipped DC1 record (data/real, 1367870), as the API sends it. */
const record: ApiRecord = {
  repo_id: '1367870',
  title: 'A Reduced Resistive Wall Mode Kinetic Stability Model for Disruption Forecasting',
  authors: ['Berkery, J.W. [Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)]', 'Sabbagh, S.A.'],
  publication_date: '2017-05-01T00:00:00Z',
  doi: 'https://doi.org/10.11578/1367870',
  product_type: 'Dataset',
};

/** Shipped DC1 1562055: the dataset of a Physical Review Letters article, which it names among its related identifiers. */
const alfvenDataset: ApiRecord = {
  repo_id: '1562055',
  title: 'Suppression of Alfv&eacute;n modes on NSTX-U with outboard beam injection',
  authors: ['Fredrickson, E D', 'Belova, E V', 'Battaglia, D J', 'Bell, R E'],
  publication_date: '2017-06-01T00:00:00Z',
  doi: 'https://doi.org/10.11578/1562055',
  product_type: 'Dataset',
  related_identifiers: ['DOI; IsReferencedBy; 10.1103/PhysRevLett.118.265001'],
};

/** Shipped DC1 1366722: a dataset titled as the Nuclear Fusion article it belongs to. */
const menardDataset: ApiRecord = {
  repo_id: '1366722',
  title: 'Fusion Nuclear Science Facilities and Pilot Plants Based on the Spherical Tokamak',
  authors: ['Menard, J.E. [Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)]', 'Brown, T.'],
  publication_date: '2016-10-01T00:00:00Z',
  doi: 'https://doi.org/10.11578/1366722',
  product_type: 'Dataset',
};

const formatted = (text: string): ParsedReference => ({ kind: 'formatted', text, ...formattedFacts(text) });

describe('a reference is found only in a record of the same work', () => {
  test('the same DOI in any form is the work', () => {
    const doi: ParsedReference = { kind: 'doi', text: 'doi:10.11578/1367870', doi: '10.11578/1367870', surnames: [] };
    const assessment = assessMatch(dc1, doi, record);
    expect(assessment).toMatchObject({ verdict: 'found', confidence: 1, facts: { identifier: 'same', title: 'unknown' } });
    expect(describeFacts(assessment.facts)).toEqual({ matched: ['DOI'], differed: [], close: [] });
  });

  test('title, first author and year as written in APA and Vancouver: found, saying what matched', () => {
    const apa = formatted(
      'Berkery, J. W., & Sabbagh, S. A. (2017). A reduced resistive wall mode kinetic stability model for disruption forecasting [Data set]. PPPL.',
    );
    const assessment = assessMatch(dc1, apa, record);
    expect(assessment.verdict).toBe('found');
    expect(describeFacts(assessment.facts)).toEqual({
      matched: ['title', 'first author', 'year', 'type (dataset)'],
      differed: [],
      close: [],
    });
    const vancouver = formatted(
      'Berkery JW, Sabbagh SA. A reduced resistive wall mode kinetic stability model for disruption forecasting. PPPL; 2017.',
    );
    expect(assessMatch(dc1, vancouver, record).verdict).toBe('found');
  });

  test('an article whose dataset the mirror holds (another DOI, the article named by the dataset): the dataset of this article, not found', () => {
    const article = formatted(
      'Fredrickson ED, Belova EV, Battaglia DJ, et al. Suppression of Alfvén modes on NSTX-U with outboard beam injection. Phys Rev Lett. 2017;118(26):265001. doi:10.1103/PhysRevLett.118.265001',
    );
    const assessment = assessMatch(dc1, article, alfvenDataset);
    expect(assessment).toMatchObject({ verdict: 'related', relation: 'Dataset of this article' });
    expect(describeFacts(assessment.facts).differed).toEqual(['DOI', 'type (dataset, not article)']);
  });

  test('an article without a DOI titled as a dataset the mirror holds: a dataset with this title, not found', () => {
    const article = formatted(
      'Menard JE, Brown T, El-Guebaly L, et al. Fusion nuclear science facilities and pilot plants based on the spherical tokamak. Nucl Fusion. 2016;56(10):106023.',
    );
    expect(assessMatch(dc1, article, menardDataset)).toMatchObject({
      verdict: 'related',
      relation: 'Dataset with this title (the reference cites an article)',
      facts: { title: 'same', firstAuthor: 'same', year: 'same', kind: 'different' },
    });
    const bibtex: ParsedReference = {
      kind: 'bibtex',
      text: '@article{menard2016, title={Fusion nuclear science facilities and pilot plants based on the spherical tokamak}, journal={Nucl. Fusion}}',
      title: 'Fusion nuclear science facilities and pilot plants based on the spherical tokamak',
      surnames: ['Menard'],
      year: 2016,
    };
    expect(assessMatch(dc1, bibtex, menardDataset).verdict).toBe('related');
  });

  test('the same title with another DOI is another work, whatever else agrees', () => {
    const other = formatted(
      'Berkery, J. W., & Sabbagh, S. A. (2017). A reduced resistive wall mode kinetic stability model for disruption forecasting. https://doi.org/10.5281/zenodo.99999',
    );
    expect(assessMatch(dc1, other, record)).toMatchObject({
      verdict: 'related',
      relation: 'Another dataset with this title (another DOI)',
      facts: { identifier: 'different' },
    });
  });

  test('a report or patent number that differs rules the record out; the same one finds it', () => {
    const report: ApiRecord = {
      repo_id: '1001',
      title: 'Advanced divertor configurations for the spherical tokamak',
      authors: ['Soukhanovskii, V.'],
      publication_date: '2019-03-01T00:00:00Z',
      product_type: 'Technical Report',
      report_number: 'LLNL-TR-770001',
    };
    const cite = (number: string) =>
      formatted(`Soukhanovskii V. Advanced divertor configurations for the spherical tokamak. Tech. Rep. ${number}, LLNL; 2019.`);
    expect(assessMatch(lit, cite('LLNL-TR-770001'), report)).toMatchObject({ verdict: 'found', facts: { identifier: 'same' } });
    expect(assessMatch(lit, cite('LLNL-TR-812345'), report)).toMatchObject({
      verdict: 'related',
      facts: { identifier: 'different', identifierName: 'report number' },
    });
    const patent: ApiRecord = {
      repo_id: '2002',
      title: 'Methods of producing metabolic biofuels',
      authors: ['Clark, Michael'],
      publication_date: '2015-01-01T00:00:00Z',
      product_type: 'Patent',
      report_number: 'ZZ 9,876,543 B2',
    };
    const patentCite = (number: string) => formatted(`Clark M. Methods of producing metabolic biofuels. US Patent ${number}. 2015.`);
    expect(assessMatch(pat, patentCite('9,876,543'), patent).verdict).toBe('found');
    expect(assessMatch(pat, patentCite('8,123,456'), patent)).toMatchObject({ verdict: 'related', facts: { identifier: 'different' } });
  });

  test('the right title with another first author or year: probably, to be checked', () => {
    const otherAuthor = formatted(
      'Smith, A. (2017). A reduced resistive wall mode kinetic stability model for disruption forecasting. PPPL.',
    );
    expect(assessMatch(dc1, otherAuthor, record)).toMatchObject({ verdict: 'probable', facts: { firstAuthor: 'different' } });
    const otherYear = formatted(
      'Berkery, J. W. (2009). A reduced resistive wall mode kinetic stability model for disruption forecasting. PPPL.',
    );
    expect(assessMatch(dc1, otherYear, record)).toMatchObject({ verdict: 'probable', facts: { year: 'different' } });
  });

  test('a near title (another part, one word more) is not the same title', () => {
    const part = formatted(
      'Berkery JW, Sabbagh SA. A reduced resistive wall mode kinetic stability model for disruption forecasting II. PPPL; 2017.',
    );
    expect(assessMatch(dc1, part, record)).toMatchObject({ verdict: 'probable', facts: { title: 'close' } });
    const versioned: ApiRecord = { ...record, title: 'Schneider Springs Fire Study 2023: Surface Water Chemistry (v2)' };
    const subtitled = formatted(
      '[1] J. W. Berkery et al., “Schneider Springs Fire Study 2023: Surface Water Chemistry (v2): Part II,” PPPL, May 2017.',
    );
    expect(assessMatch(dc1, subtitled, versioned).verdict).toBe('probable');
    const cited = formatted('[1] J. W. Berkery et al., “Schneider Springs Fire Study 2023: Surface Water Chemistry (v2),” PPPL, May 2017.');
    expect(assessMatch(dc1, cited, versioned).verdict).toBe('found');
  });

  test('a made-up reference on a generated record’s topic, by another author: at most probably', () => {
    const generated: ApiRecord = {
      repo_id: '50000123',
      title: 'Effect of turbulence on toroidal plasma',
      authors: ['Baker, W. P.'],
      publication_date: '2013-04-02T00:00:00Z',
      doi: '10.5555/PhysRevB.88.123456',
      product_type: 'Journal Article',
    };
    const smith = formatted('Smith J. Effect of turbulence on toroidal plasma. Phys Plasmas. 2013;20:012345.');
    expect(assessMatch(lit, smith, generated).verdict).toBe('probable');
  });

  test('the same author and year: a title sharing half its words is for a person to check, another title is not found', () => {
    const sibling = formatted(
      'Berkery, J. W. (2017). Kinetic effects on resistive wall mode stability in the NSTX-U tokamak. Phys. Plasmas.',
    );
    expect(assessMatch(dc1, sibling, record).verdict).toBe('probable');
    const other = formatted('Berkery, J. W. (2017). Neutral beam injection and plasma rotation in spherical tokamaks. Nucl. Fusion.');
    expect(assessMatch(dc1, other, record).verdict).toBe('not-found');
  });

  test('the title search asks for the title’s words with OR, no stop words', () => {
    expect(titleQuery(formatted('Berkery, J. W. (2017). A reduced resistive wall mode model for the disruption. PPPL.'))).toBe(
      'reduced OR resistive OR wall OR mode OR model OR disruption',
    );
  });
});
