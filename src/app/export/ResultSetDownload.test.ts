import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { capNotice, ResultSetDownload } from './ResultSetDownload';

describe('capNotice', () => {
  it('states the limit before anything starts', () => {
    expect(capNotice(250_000, 100_000)).toBe(
      'This search found 250,000 records. A download holds at most 100,000 records, so the file will hold the first 100,000 in the order shown.',
    );
    expect(capNotice(12, 100_000)).toBe(
      'This search found 12 records; the file will hold all of them. A download holds at most 100,000 records.',
    );
    expect(capNotice(undefined, 100_000)).toBe('A download holds at most 100,000 records.');
  });

  it('says how many works the records are, where the server counted them', () => {
    expect(capNotice(12, 100_000, 10)).toBe(
      'This search found 12 records (10 works); the file will hold all of them, each version of a work a record of its own. A download holds at most 100,000 records.',
    );
    expect(capNotice(12, 100_000, 12)).toBe(capNotice(12, 100_000));
  });
});

describe('ResultSetDownload', () => {
  it('offers the six formats, the BOM option for CSV and a labelled download button', () => {
    const html = renderToStaticMarkup(
      createElement(ResultSetDownload, { deployment: deploymentByKey('LIT')!, searchUrl: 'https://x.example/records?q=a', total: 250_000 }),
    );
    for (const label of [
      'CSV (.csv)',
      'RIS (.ris)',
      'CSL-JSON (.csl.json)',
      'JSON (.json)',
      'BibTeX (.bib)',
      'BibTeX (full) (.full.bib)',
      'XML (.xml)',
    ]) {
      expect(html).toContain(`>${label}</option>`);
    }
    expect(html).toContain('Add UTF-8 BOM (for spreadsheets)');
    expect(html).toContain('Download 100,000 records</button>');
    expect(html).toContain('at most 100,000 records');
  });
});
