import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import { describe, expect, it } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../deployments/registry';
import { recordsToFullBibtex, recordToFullBibtex } from './bibtex-full';

const lit = deploymentByKey('LIT')!;
const record = (fields: Record<string, unknown>): ApiRecord => ({ repo_id: '42', title: 'A title', ...fields });
const readBack = (bibtex: string) => (new Cite(bibtex).data as Record<string, unknown>[])[0]!;

describe('full BibTeX entries', () => {
  it('writes a journal article as @article with journal, volume and issue', () => {
    const bibtex = recordToFullBibtex(
      lit,
      record({
        product_type: 'Journal Article',
        journal_name: 'Physical Review Letters',
        journal_volume: '118',
        journal_issue: '26',
        publication_date: '2017-06-30T00:00:00Z',
      }),
      'records',
    );
    expect(bibtex).toMatch(/^@article\{records_42,/);
    expect(bibtex).toContain('journal = {Physical Review Letters}');
    expect(bibtex).toContain('volume = {118}');
    expect(bibtex).toContain('number = {26}');
    const item = readBack(bibtex);
    expect(item.type).toBe('article-journal');
    expect(item['container-title']).toBe('Physical Review Letters');
    expect(item.issue).toBe('26');
  });

  it('writes reports, patents, theses, conferences and books as their own types', () => {
    const type = (product_type: string) => /^@(\w+)\{/.exec(recordToFullBibtex(lit, record({ product_type }), 'r'))![1];
    expect(type('Technical Report')).toBe('techreport');
    expect(type('Patent')).toBe('patent');
    expect(type('Patent Application')).toBe('patent');
    expect(type('Thesis/Dissertation')).toBe('phdthesis');
    expect(type('Conference')).toBe('inproceedings');
    expect(type('Book')).toBe('book');
    const report = recordToFullBibtex(
      lit,
      record({ product_type: 'Technical Report', report_number: 'DEMO-TR-7', research_orgs: ['Some Laboratory'] }),
      'r',
    );
    expect(report).toContain('number = {DEMO-TR-7}');
    expect(report).toContain('institution = {Some Laboratory}');
  });

  it('writes a dataset or video as @misc saying what it is, with its citation page as url', () => {
    const bibtex = recordToFullBibtex(
      lit,
      record({
        product_type: 'Dataset',
        links: [
          { rel: 'citation', href: 'https://example.org/biblio/42' },
          { rel: 'fulltext', href: 'javascript:alert(1)' },
        ],
      }),
      'r',
    );
    expect(bibtex).toMatch(/^@misc\{/);
    expect(bibtex).toContain('howpublished = {Dataset}');
    expect(bibtex).toContain('url = {https://example.org/biblio/42}');
    expect(recordToFullBibtex(lit, record({ product_type: 'Video' }), 'r')).toContain('howpublished = {Video}');
    // Only http(s) addresses become a url.
    expect(recordToFullBibtex(lit, record({ site_url: 'javascript:alert(1)' }), 'r')).not.toContain('url =');
  });

  it('keeps full given names, and drops affiliations and ORCIDs from them', () => {
    const bibtex = recordToFullBibtex(
      lit,
      record({ authors: ['Fredrickson, Eric D. [Princeton Plasma Physics Lab.] (ORCID:0000000000000001)', 'Gorelenkov, Nikolai'] }),
      'r',
    );
    expect(bibtex).toContain('author = {Fredrickson, Eric D. and Gorelenkov, Nikolai}');
    expect(readBack(bibtex).author).toEqual([
      { family: 'Fredrickson', given: 'Eric D.' },
      { family: 'Gorelenkov', given: 'Nikolai' },
    ]);
  });

  it('braces capitals in titles, decodes entities and keeps sub- and superscripts', () => {
    const bibtex = recordToFullBibtex(
      lit,
      record({ title: 'Suppression of Alfv&eacute;n modes on NSTX-U: CO<sub>2</sub> at 10<sup>13</sup> cm' }),
      'r',
    );
    expect(bibtex).toContain('title = {{Suppression} of {Alfvén} modes on {NSTX-U}: {CO}\\textsubscript{2} at 10\\textsuperscript{13} cm}');
    expect(readBack(bibtex).title).toBe('Suppression of Alfvén modes on NSTX-U: CO<sub>2</sub> at 10<sup>13</sup> cm');
  });

  it('writes Unicode sub- and superscripts as LaTeX commands pdfLaTeX typesets, the punctuation after a braced word outside its braces', () => {
    // DC1 2473255's title as the upstream writes it.
    const title = 'CROCUS High-Frequency Measurements of CO₂, H₂O, Wind, and Temperature (10⁻³ s) at University of Illinois Chicago';
    const bibtex = recordToFullBibtex(lit, record({ title, product_type: 'Journal Article', journal_name: 'J. CO₂ Util.' }), 'r');
    expect(bibtex).toContain(
      'title = {{CROCUS} {High-Frequency} {Measurements} of {CO\\textsubscript{2}}, {H\\textsubscript{2}O}, {Wind}, and {Temperature} (10\\textsuperscript{-3} s) at {University} of {Illinois} {Chicago}}',
    );
    expect(bibtex).toContain('journal = {J. CO\\textsubscript{2} Util.}');
    expect(bibtex).not.toMatch(/[₀-₉⁰-⁹]/u);
    expect(readBack(bibtex).title).toBe(
      'CROCUS High-Frequency Measurements of CO<sub>2</sub>, H<sub>2</sub>O, Wind, and Temperature (10<sup>-3</sup> s) at University of Illinois Chicago',
    );
  });

  it('writes the DOI bare and verbatim, and leaves out empty fields', () => {
    const bibtex = recordToFullBibtex(lit, record({ doi: 'https://doi.org/10.5555/demo_1', journal_name: '', authors: [] }), 'r');
    expect(bibtex).toContain('doi = {10.5555/demo_1}');
    expect(bibtex).not.toMatch(/journal|author/);
  });

  it('leaves upstream placeholders out, and notes a generated demo record', () => {
    const bibtex = recordToFullBibtex(
      lit,
      record({ product_type: 'Dataset', product_number: 'None', publisher: 'Not Available', authors: ['null'] }),
      'r',
    );
    expect(bibtex).not.toMatch(/number|publisher|author|None|Not Available|null/);
    expect(recordsToFullBibtex(lit, [record({}), record({ repo_id: '43' })], 'r', new Set(['43'])).split('\n@')).toEqual([
      expect.not.stringContaining('note ='),
      expect.stringContaining('note = {Generated demo record: its text and identifiers'),
    ]);
  });
});
