import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { fileNamePart, incompleteFileName, recordFileName, resultSetFileName, selectionFileName } from './file-names';

function must(key: string): Deployment {
  const deployment = deploymentByKey(key);
  if (!deployment) throw new Error(key);
  return deployment;
}

describe('download file names', () => {
  it('carry the deployment, the record and the format', () => {
    expect(recordFileName(must('LIT'), '2368548', 'bibtex')).toBe('lit-2368548.bib');
    expect(recordFileName(must('DC0'), '123', 'xml')).toBe('dc-v0.1-123.xml');
    expect(recordFileName(must('MM'), '5', 'csv')).toBe('mm-5.csv');
    expect(recordFileName(must('PAT'), '77', 'ris')).toBe('pat-77.ris');
    expect(recordFileName(must('DC1'), '9', 'csl-json')).toBe('dc-9.csl.json');
    expect(recordFileName(must('ENR'), '9', 'json')).toBe('enr-9.json');
  });

  it('make any identifier safe as a file name', () => {
    expect(fileNamePart('../../etc/passwd')).toBe('etc_passwd');
    expect(fileNamePart('a b/c\\d:e*f?')).toBe('a_b_c_d_e_f');
    expect(fileNamePart('...')).toBe('record');
    expect(fileNamePart('x'.repeat(300))).toHaveLength(100);
  });

  it('name selections by their size and result sets by the day', () => {
    expect(selectionFileName(must('LIT'), 12, 'csv')).toBe('lit-selection-12.csv');
    expect(resultSetFileName(must('PAT'), 'ris', new Date(2024, 4, 1, 12))).toBe('pat-results-2024-05-01.ris');
  });

  it('name a result set by its search in the filter chips’ words, safe characters only, bounded', () => {
    const day = new Date(2026, 10, 29, 12);
    const lit = must('LIT');
    expect(resultSetFileName(lit, 'bibtex', day, '/api/lit/v1/records?q=solar%20cell&page=3&rows=50&sort=relevance')).toBe(
      'lit-solar-cell-2026-11-29.bib',
    );
    expect(resultSetFileName(lit, 'csv', day, 'http://h/api/lit/v1/records?q=solar+cell&facet.product_type=Journal+Article')).toBe(
      'lit-solar-cell-product-type-journal-article-2026-11-29.csv',
    );
    expect(resultSetFileName(lit, 'ris', day, '/api/lit/v1/records?q=%22Alfv%C3%A9n%20modes%22%20%2F..%2F..%2Fetc%2Fpasswd')).toBe(
      'lit-alfven-modes-etc-passwd-2026-11-29.ris',
    );
    const long = resultSetFileName(lit, 'json', day, `/api/lit/v1/records?q=${'plasma '.repeat(100)}`);
    expect(long.length).toBeLessThanOrEqual('lit-'.length + 60 + '-2026-11-29.json'.length);
    expect(long).toMatch(/^lit-plasma(-plasma)*-2026-11-29\.json$/);
    expect(resultSetFileName(lit, 'csv', day, '/api/lit/v1/records?rows=20')).toBe('lit-results-2026-11-29.csv');
    expect(resultSetFileName(lit, 'csv', day, '/api/lit/v1/records?q=%E2%88%91%E2%88%AB')).toBe('lit-results-2026-11-29.csv');
  });

  it('mark the part of an interrupted download as incomplete, before the extension', () => {
    expect(incompleteFileName('lit-results-2024-05-01.csv')).toBe('lit-results-2024-05-01-incomplete.csv');
    expect(incompleteFileName('dc-v0.1-results-2024-05-01.csl.json')).toBe('dc-v0.1-results-2024-05-01-incomplete.csl.json');
    expect(incompleteFileName('dc-v0.1-results-2024-05-01.json')).toBe('dc-v0.1-results-2024-05-01-incomplete.json');
  });
});
