import { describe, expect, it } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../deployments/registry';
import { citationMeta, citationMetaHtml } from './citation-meta';

const must = (key: string) => deploymentByKey(key)!;
const values = (tags: readonly (readonly [string, string])[], name: string) =>
  tags.filter(([tag]) => tag === name).map(([, content]) => content);
const names = (tags: readonly (readonly [string, string])[]) => new Set(tags.map(([name]) => name));

const article: ApiRecord = {
  repo_id: '1',
  title: 'CO<sub>2</sub> capture in Alfv&eacute;n-wave plasmas',
  authors: ['Müller, Jörg [Argonne National Laboratory] (ORCID:0000000218250097)', 'Doe, J.'],
  publication_date: '2021-03-05T00:00:00Z',
  doi: 'https://doi.org/10.5555/abc.1',
  product_type: 'Journal Article',
  journal_name: 'Physical Review E',
  journal_volume: '12',
  journal_issue: '3',
  description: '<p>First.</p><p>Second &amp; last.</p>',
  subjects: ['70 PLASMA PHYSICS', 'plasma'],
  language: 'English',
  links: [{ rel: 'fulltext', href: 'https://example.org/paper.pdf' }],
};

describe('citation meta tags', () => {
  it('a journal article: title, every author, date, DOI, journal, volume, issue, abstract, keywords, language, PDF', () => {
    const tags = citationMeta(must('LIT'), article);
    expect(values(tags, 'citation_title')).toEqual(['CO₂ capture in Alfvén-wave plasmas']);
    expect(values(tags, 'citation_author')).toEqual(['Müller, Jörg', 'Doe, J.']);
    expect(values(tags, 'citation_publication_date')).toEqual(['2021/03/05']);
    expect(values(tags, 'citation_doi')).toEqual(['10.5555/abc.1']);
    expect(values(tags, 'citation_journal_title')).toEqual(['Physical Review E']);
    expect(values(tags, 'citation_volume')).toEqual(['12']);
    expect(values(tags, 'citation_issue')).toEqual(['3']);
    expect(values(tags, 'citation_abstract')).toEqual(['First.\n\nSecond & last.']);
    expect(values(tags, 'citation_keywords')).toEqual(['70 PLASMA PHYSICS; plasma']);
    expect(values(tags, 'citation_pdf_url')).toEqual(['https://example.org/paper.pdf']);
    expect(values(tags, 'DC.type')).toEqual(['Journal Article']);
  });

  it('a dataset, a patent and a video carry their DC.type and never a journal', () => {
    const cases: [string, ApiRecord, string][] = [
      ['DC1', { ...article, product_type: 'Dataset' }, 'Dataset'],
      ['PAT', { ...article, product_type: 'Patent', report_number: 'ZZ 9,999,999 B2' }, 'Patent'],
      ['MM', { ...article, product_type: 'Video' }, 'MovingImage'],
    ];
    for (const [key, record, type] of cases) {
      const tags = citationMeta(must(key), record);
      expect(values(tags, 'DC.type'), key).toEqual([type]);
      for (const name of ['citation_journal_title', 'citation_volume', 'citation_issue'])
        expect(names(tags).has(name), `${key} ${name}`).toBe(false);
    }
    expect(values(citationMeta(must('PAT'), cases[1]![1]), 'citation_patent_number')).toEqual(['ZZ 9,999,999 B2']);
  });

  it('a report names its institution and number; a full text that is no PDF is no citation_pdf_url', () => {
    const report = {
      ...article,
      product_type: 'Technical Report',
      report_number: 'DEMO-ORNL/TM-2020/1',
      research_orgs: ['Oak Ridge National Laboratory'],
      links: [{ rel: 'fulltext', href: 'https://example.org/files/1.txt' }],
    };
    const tags = citationMeta(must('LIT'), report);
    expect(values(tags, 'citation_technical_report_number')).toEqual(['DEMO-ORNL/TM-2020/1']);
    expect(values(tags, 'citation_technical_report_institution')).toEqual(['Oak Ridge National Laboratory']);
    expect(names(tags).has('citation_pdf_url')).toBe(false);
  });

  it('writes HTML with every value escaped', () => {
    const html = citationMetaHtml([['citation_title', '"><script>alert(1)</script>']]);
    expect(html).toBe('<meta name="citation_title" content="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" data-record-meta>');
  });
});

describe('COinS', () => {
  it('is an OpenURL 1.0 ContextObject that reads back with the record’s title, authors, date and DOI', async () => {
    const { coinsOf } = await import('./coins');
    const kev = new URLSearchParams(coinsOf(must('LIT'), article));
    expect(kev.get('ctx_ver')).toBe('Z39.88-2004');
    expect(kev.get('rft_val_fmt')).toBe('info:ofi/fmt:kev:mtx:journal');
    expect(kev.get('rft.atitle')).toBe('CO₂ capture in Alfvén-wave plasmas');
    expect(kev.get('rft.jtitle')).toBe('Physical Review E');
    expect(kev.getAll('rft.au')).toEqual(['Müller, Jörg', 'Doe, J.']);
    expect(kev.get('rft.date')).toBe('2021-03-05');
    expect(kev.get('rft_id')).toBe('info:doi/10.5555/abc.1');
    const dataset = new URLSearchParams(coinsOf(must('DC1'), { ...article, product_type: 'Dataset' }));
    expect(dataset.get('rft_val_fmt')).toBe('info:ofi/fmt:kev:mtx:dc');
    expect(dataset.get('rft.type')).toBe('Dataset');
    expect(dataset.get('rft.jtitle')).toBeNull();
  });
});
