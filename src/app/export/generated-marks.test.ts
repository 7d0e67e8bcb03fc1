/**
 * Issue 38, item 2: one rule marks generated demo records in every file the app writes —
 * a selection's export, a record's export and a whole-result download, in all seven formats —
 * and never marks a real record.
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { recordsToBibtex } from '../../formats/bibtex';
import { generatedMember, generatedNote, type GeneratedIds } from '../../formats/generated-mark';
import { parseRis } from '../../formats/ris-reader';
import { recordsToXml } from '../../formats/xml';
import { exportFormatIds, type ExportFormatId } from './export-formats';
import { splitBibtexPage, splitXmlPage } from './page-split';
import { exportRecord } from './record-export';
import { recordsOutput } from './records-output';
import { createResultSetWriter, type PageUnits } from './result-set-writer';

function must(key: string): Deployment {
  const deployment = deploymentByKey(key);
  if (!deployment) throw new Error(key);
  return deployment;
}

const lit = must('LIT');

const records: ApiRecord[] = [
  { repo_id: '1828290', title: 'A real report', authors: ['Kumari, Sunita [CSHL]'], publication_date: '2021-10-01T00:00:00Z' },
  {
    repo_id: '50000001',
    title: 'Effect of turbulence on toroidal plasma',
    authors: ['Baker, W. P. [Demo Lab] (ORCID:0000000012345678)'],
    doi: '10.5555/demo.1',
    publication_date: '2013-01-01T00:00:00Z',
  },
  { repo_id: '1562055', title: 'Another real one & more', publication_date: '2017-06-30T00:00:00Z' },
  { repo_id: '50000002', title: 'A second generated record', doi: 'https://doi.org/10.5555/demo.2' },
];
const generated: GeneratedIds = new Set(['50000001', '50000002']);

/** The ids of the records a file marks as generated, read back the way each format is read. */
function markedIds(format: ExportFormatId, text: string): string[] {
  switch (format) {
    case 'bibtex':
    case 'bibtex-full':
      return text
        .split(/^(?=@)/m)
        .filter((entry) => entry.includes(`note = {${generatedNote}}`))
        .map((entry) => /^@\w+\{[^_]+_([^,]+),/.exec(entry)![1]!);
    case 'ris':
      return parseRis(text)
        .filter((entry) => entry.some(([tag, value]) => tag === 'N1' && value === generatedNote))
        .map((entry) => entry.find(([tag]) => tag === 'ID')![1].replace(`${lit.slug}-`, ''));
    case 'csl-json':
      return (JSON.parse(text) as { id: string; note?: string }[])
        .filter((item) => item.note === generatedNote)
        .map((item) => item.id.replace(`${lit.slug}-`, ''));
    case 'json':
      return (JSON.parse(text) as Record<string, unknown>[])
        .filter((item) => item[generatedMember] === generatedNote)
        .map((item) => String(item.repo_id));
    case 'xml': {
      const parsed = new XMLParser({ parseTagValue: false }).parse(text) as {
        records: { record: Record<string, unknown>[] | Record<string, unknown> };
      };
      const list = [parsed.records.record].flat();
      return list.filter((record) => record[generatedMember] === generatedNote).map((record) => String(record.repo_id));
    }
    case 'csv': {
      const lines = text
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .filter(Boolean);
      const header = lines[0]!.split(',');
      expect(header.at(-1)).toBe(generatedMember);
      // The test records hold no quotes or commas in their first column and the note is the last one.
      return lines
        .slice(1)
        .filter((line) => line.endsWith(`,${generatedNote}`) || line.endsWith(`,"${generatedNote}"`))
        .map((line) => line.split(',')[header.indexOf('repo_id')]!);
    }
  }
}

/** Two pages of the records as the download gets them from a server (its X-Generated-Records per page). */
function serverPages(format: ExportFormatId): PageUnits[] {
  const pages = [records.slice(0, 2), records.slice(2)];
  return pages.map((page) => {
    const pageGenerated = new Set(page.map((record) => record.repo_id).filter((id) => generated.has(id)));
    if (format === 'xml') {
      const split = splitXmlPage(recordsToXml(lit, page), 'https://api.example/records');
      return { kind: 'xml', prologue: split.prologue, records: split.records, generated: pageGenerated };
    }
    if (format === 'bibtex') return { kind: 'bibtex', entries: splitBibtexPage(recordsToBibtex(page, 'OSTI')), generated: pageGenerated };
    return { kind: 'records', records: page, raw: JSON.parse(JSON.stringify(page)) as unknown[], generated: pageGenerated };
  });
}

describe('every file the app writes marks each generated record, and only those', () => {
  it.each(exportFormatIds)('a selection exported as %s', (format) => {
    const text = recordsOutput(lit, records, format, { generated, bom: format === 'csv' });
    expect(markedIds(format, text).sort()).toEqual([...generated].sort());
  });

  it.each(exportFormatIds)('a whole result set downloaded as %s, page by page', (format) => {
    const writer = createResultSetWriter(lit, format, { bom: format === 'csv' });
    const text = serverPages(format)
      .map((units) => writer.page(units))
      .join('')
      .concat(writer.end());
    expect(markedIds(format, text).sort()).toEqual([...generated].sort());
  });

  it.each(exportFormatIds)('one generated record exported as %s (the server’s own text marked too)', async (format) => {
    const record = records[1]!;
    const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      const accept = new Headers(init?.headers).get('Accept') ?? '';
      const [type, body] = accept.includes('xml')
        ? ['application/xml', recordsToXml(lit, [record])]
        : accept.includes('bibtex')
          ? ['application/x-bibtex', recordsToBibtex([record], 'records')]
          : ['application/json', JSON.stringify([record])];
      return new Response(body, { headers: { 'Content-Type': `${type}; charset=utf-8` } });
    }) as typeof globalThis.fetch;
    const file = await exportRecord({ deployment: lit, baseUrl: 'https://api.example/lit/v1/', record, format, generated: true, fetch });
    expect(markedIds(format, await file.blob.text())).toEqual([record.repo_id]);
    const real = await exportRecord({ deployment: lit, baseUrl: 'https://api.example/lit/v1/', record, format, fetch });
    expect(markedIds(format, await real.blob.text())).toEqual([]);
  });
});
