import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { recordsToBibtex } from '../../formats/bibtex';
import { recordsToFullBibtex } from '../../formats/bibtex-full';
import { loadCiteEngine, type CiteEngine } from './cite-engine';
import { citationStyles, type CitationStyleId } from './cite-styles';
import { nodesToText } from './citation-html';
import { formatCitations } from './format-citations';

function must(key: string): Deployment {
  const deployment = deploymentByKey(key);
  if (!deployment) throw new Error(key);
  return deployment;
}

const lit = must('LIT');

/** The shipped style files, read as the browser would fetch them from the app's origin. */
const shippedFile = (path: string) => readFile(new URL(`../../../public/${path}`, import.meta.url), 'utf8');

let engine: Promise<CiteEngine> | undefined;
const loadEngine = () => (engine ??= loadCiteEngine(shippedFile));

const kumari: ApiRecord = {
  repo_id: '1828290',
  title: 'A KBase Case Study on Genome-wide Transcriptomics in Sorghum',
  authors: ['Kumari, Sunita [Cold Spring Harbor Laboratory] (ORCID:0000000123456789)', 'Bell, R.E. [PPPL]'],
  publication_date: '2021-11-01T00:00:00Z',
  doi: 'https://doi.org/10.25982/101788.79/1828290',
  product_type: 'Journal Article',
  journal_name: 'Plant Direct',
  journal_volume: '5',
  journal_issue: '11',
  links: [{ rel: 'citation', href: 'https://www.osti.gov/biblio/1828290' }],
};
const adams: ApiRecord = {
  repo_id: '42',
  title: 'Wind <script>alert(1)</script> & Water',
  authors: ['Adams, Zoe'],
  publication_date: '2019-03-02T00:00:00Z',
  product_type: 'Technical Report',
  report_number: 'NREL/TP-5000-42',
  research_orgs: ['National Renewable Energy Laboratory'],
};

/** The day the citations are made, for styles that cite when an online item was seen. */
const accessed = new Date('2026-11-23T12:00:00Z');

const cite = (style: CitationStyleId, records: readonly ApiRecord[] = [kumari]) =>
  formatCitations({ deployment: lit, records, style, accessed, loadFile: shippedFile }, loadEngine);

describe('formatCitations', () => {
  it.each([
    [
      'apa',
      'Kumari, S., & Bell, R. E. (2021). A KBase case study on genome-wide transcriptomics in sorghum. Plant Direct, 5(11). https://doi.org/10.25982/101788.79/1828290',
    ],
    [
      'mla',
      'Kumari, Sunita, and R. E. Bell. “A KBase Case Study on Genome-Wide Transcriptomics in Sorghum.” Plant Direct, vol. 5, no. 11, Nov. 2021, https://doi.org/10.25982/101788.79/1828290.',
    ],
    [
      'chicago',
      'Kumari, Sunita, and R. E. Bell. 2021. “A KBase Case Study on Genome-Wide Transcriptomics in Sorghum.” Plant Direct 5 (11). https://doi.org/10.25982/101788.79/1828290.',
    ],
    [
      'harvard',
      'Kumari, S. and Bell, R.E. (2021) ‘A KBase Case Study on Genome-wide Transcriptomics in Sorghum’, Plant Direct, 5(11). Available at: https://doi.org/10.25982/101788.79/1828290 (Accessed: 23 November 2026).',
    ],
    [
      'vancouver',
      '1. Kumari S, Bell RE. A KBase Case Study on Genome-wide Transcriptomics in Sorghum. Plant Direct. 2021 Nov 1;5(11). doi:10.25982/101788.79/1828290',
    ],
    [
      'ieee',
      '[1] S. Kumari and R. E. Bell, “A KBase Case Study on Genome-wide Transcriptomics in Sorghum,” Plant Direct, vol. 5, no. 11, Nov. 2021, doi: 10.25982/101788.79/1828290.',
    ],
  ] as const)('renders %s', async (style, expected) => {
    const result = await cite(style);
    expect(result.kind).toBe('csl');
    expect(result.text).toBe(expected);
    // The screen shows the same words as the plain text (the layout, not spaces, sets a number apart).
    expect(nodesToText(result.entries[0]!.nodes).replace(/\s+/g, '')).toBe(expected.replace(/\s+/g, ''));
  });

  it('offers the six citation styles and both BibTeX variants', () => {
    expect(citationStyles.map((style) => style.label)).toEqual([
      'APA (7th edition)',
      'MLA (9th edition)',
      'Chicago (author-date)',
      'Harvard (Cite Them Right)',
      'Vancouver',
      'IEEE',
      'BibTeX',
      'BibTeX (full)',
    ]);
  });

  it('italicises what the style italicises, in the clipboard HTML too', async () => {
    const result = await cite('apa');
    expect(result.html).toBe(
      '<p><span class="csl-entry">Kumari, S., &amp; Bell, R. E. (2021). A KBase case study on genome-wide transcriptomics in sorghum. <i>Plant Direct</i>, <i>5</i>(11). https://doi.org/10.25982/101788.79/1828290</span></p>',
    );
  });

  it('copies several citations as separate paragraphs, in the style’s order', async () => {
    const result = await cite('apa', [kumari, adams]);
    expect(result.entries).toHaveLength(2);
    const paragraphs = result.text.split('\n\n');
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0]).toMatch(
      /^Adams, Z\. \(2019\)\. Wind <script>alert\(1\)<\/script> & Water \(NREL\/TP-5000-42\)\. National Renewable Energy Laboratory\.$/,
    );
    expect(paragraphs[1]).toMatch(/^Kumari, S\./);
    expect(result.html.match(/<p>/g)).toHaveLength(2);
    // Record text stays text: the title's markup is escaped, never live.
    expect(result.html).toContain('Wind &lt;script&gt;alert(1)&lt;/script&gt; &amp; Water');
    expect(result.html).not.toContain('<script>');
  });

  // Italics inside an italic title turn roman, as CSL says; headline case (MLA, Chicago) capitalises words.
  it('turns a title’s markup into <sub>/<sup>/<i> elements in HTML and Unicode sub/superscripts in the plain text', async () => {
    const formula: ApiRecord = {
      ...adams,
      repo_id: '43',
      title: 'CO<sub>2</sub> at 10<sup>13</sup> cm<sup>-3</sup> in Alfv&eacute;n <em>waves</em>',
    };
    for (const style of ['apa', 'mla', 'chicago', 'harvard', 'vancouver', 'ieee'] as const) {
      const result = await cite(style, [formula]);
      expect(result.html, style).toMatch(
        /CO<sub>2<\/sub> at 10<sup>13<\/sup> cm<sup>-3<\/sup> in Alfvén (<i>|<span class="csl-roman">)?waves/i,
      );
      expect(result.text, style).toMatch(/CO₂ at 10¹³ cm⁻³ in Alfvén waves/i);
      expect(result.text, style).not.toMatch(/[<>]|&[a-z]+;/);
    }
  });

  it('numbers several citations in a numeric style', async () => {
    const result = await cite('ieee', [kumari, adams]);
    expect(result.text.split('\n\n').map((text) => text.slice(0, 3))).toEqual(['[1]', '[2]']);
  });

  it('gives BibTeX from the server’s codec, one entry per paragraph, that citation-js reads back', async () => {
    let loaded = false;
    const result = await formatCitations({ deployment: lit, records: [kumari, adams], style: 'bibtex' }, () => {
      loaded = true;
      return loadEngine();
    });
    // BibTeX needs no citation engine.
    expect(loaded).toBe(false);
    expect(result.text).toBe(recordsToBibtex([kumari, adams], 'records'));
    expect(result.html.match(/<pre>/g)).toHaveLength(2);
    const parsed = new Cite(result.text).data as { id: string; title: string; DOI?: string }[];
    expect(parsed.map((entry) => [entry.id, entry.title])).toEqual([
      ['records_1828290', kumari.title],
      ['records_42', adams.title],
    ]);
  });

  it('gives the full BibTeX, typed by the kind of work, from the export codec', async () => {
    const result = await formatCitations({ deployment: lit, records: [kumari, adams], style: 'bibtex-full' }, loadEngine);
    expect(result.kind).toBe('bibtex');
    expect(result.text).toBe(recordsToFullBibtex(lit, [kumari, adams], 'records'));
    expect(result.entries.map((entry) => entry.text.slice(0, entry.text.indexOf('{')))).toEqual(['@article', '@techreport']);
    const parsed = new Cite(result.text).data as { type: string; 'container-title'?: string }[];
    expect(parsed.map((entry) => entry.type)).toEqual(['article-journal', 'report']);
    expect(parsed[0]!['container-title']).toBe('Plant Direct');
  });

  it('uses the BibTeX key prefix it is given', async () => {
    const result = await formatCitations({ deployment: lit, records: [kumari], style: 'bibtex', bibtexPrefix: 'OSTI' }, loadEngine);
    expect(result.text.startsWith('@misc{OSTI_1828290,')).toBe(true);
  });

  it('cites in a style of the CSL repository that has no bibliography, one full note per work', async () => {
    const result = await cite('csl:bluebook-inline', [kumari, adams]);
    expect(result.entries).toHaveLength(2);
    expect(result.text).toContain('Kumari');
    expect(result.text).toContain('Adams');
  });

  it('fails with a reason when a style file cannot be loaded', async () => {
    const broken = await loadCiteEngine(async () => {
      throw new Error('offline');
    });
    // A fresh engine shares citation-js's registry; use a template name no one registered.
    const style = { kind: 'csl', id: 'ieee', label: 'IEEE', template: 'not-registered-ieee', file: 'csl/ieee.csl' } as const;
    await expect(broken.bibliography([], style)).rejects.toThrow('offline');
  });
});

describe('citations of generated demo records', () => {
  const generated = new Set([adams.repo_id]);
  const citeMarked = (style: CitationStyleId) =>
    formatCitations({ deployment: lit, records: [kumari, adams], style, accessed, loadFile: shippedFile, generated }, loadEngine);

  it.each(['apa', 'ieee', 'chicago'] as const)(
    '%s: the generated record’s citation says so, on screen and copied; the real one does not',
    async (style) => {
      const { entries, text, html } = await citeMarked(style);
      const marked = entries.filter((entry) => entry.generated);
      expect(marked).toHaveLength(1);
      expect(marked[0]!.text).toMatch(/Adams[\s\S]*\[Generated demo record: not a real work\.\]$/);
      expect(nodesToText(marked[0]!.nodes)).toContain('[Generated demo record: not a real work.]');
      const real = entries.find((entry) => !entry.generated)!;
      expect(real.text).toContain('Kumari');
      expect(real.text).not.toContain('Generated demo record');
      expect(text.match(/Generated demo record/g)).toHaveLength(1);
      expect(html.match(/Generated demo record/g)).toHaveLength(1);
    },
  );

  it.each(['bibtex', 'bibtex-full'] as const)('%s: the generated record’s entry has the note and is flagged', async (style) => {
    const { entries } = await citeMarked(style);
    expect(entries.map((entry) => entry.generated)).toEqual([false, true]);
    expect(entries[1]!.text).toContain('note = {Generated demo record');
    expect(entries[0]!.text).not.toContain('note =');
  });
});
