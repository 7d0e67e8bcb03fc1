import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deploymentByKey, deployments, type ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { csvField, csvHeader, csvLine, csvRow, recordsToCsv, utf8Bom } from './csv';
import { knownText } from './known-values';
import { toPlainText } from './rich-text';

/**
 * A strict RFC 4180 reader, written from the RFC's grammar rather than from the writer:
 * records end in CRLF, a field is either plain (no quote, comma, CR or LF) or quoted with
 * quotes doubled. Anything else throws, so a writer that forgets to quote fails here.
 */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let index = 0;
  while (index < text.length) {
    const row: string[] = [];
    for (;;) {
      let field = '';
      if (text[index] === '"') {
        index += 1;
        for (;;) {
          if (index >= text.length) throw new Error('unterminated quoted field');
          if (text[index] === '"') {
            if (text[index + 1] === '"') {
              field += '"';
              index += 2;
              continue;
            }
            index += 1;
            break;
          }
          field += text[index];
          index += 1;
        }
      } else {
        while (index < text.length && !/[",\r\n]/.test(text[index]!)) {
          field += text[index];
          index += 1;
        }
        if (text[index] === '"') throw new Error(`quote inside an unquoted field at ${index}`);
      }
      row.push(field);
      if (text[index] === ',') {
        index += 1;
        continue;
      }
      if (text.startsWith('\r\n', index)) {
        index += 2;
        break;
      }
      throw new Error(`expected comma or CRLF at ${index}, found ${JSON.stringify(text.slice(index, index + 5))}`);
    }
    rows.push(row);
  }
  return rows;
}

function must(key: string): Deployment {
  const deployment = deploymentByKey(key);
  if (!deployment) throw new Error(key);
  return deployment;
}

const lit = must('LIT');

/** Text with everything CSV must protect: quotes, commas, bare CR, bare LF, CRLF, non-ASCII. */
const awkwardText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', ',', '\r', '\n', '\r\n', ' ', 'é', '—', '😀', '\u0000', ';'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }),
  ),
});

describe('csvField and csvLine', () => {
  it('round-trips any row of any strings through an RFC 4180 reader (property)', () => {
    fc.assert(
      fc.property(fc.array(awkwardText, { minLength: 1, maxLength: 6 }), (values) => {
        // A cell a spreadsheet would run as a formula comes back with one apostrophe in front.
        expect(parseCsv(csvLine(values))).toEqual([values.map((value) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value))]);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves plain text alone and quotes only what needs it', () => {
    expect(csvField('Utah FORGE')).toBe('Utah FORGE');
    expect(csvField('Smith, J.')).toBe('"Smith, J."');
    expect(csvField('the "best" data')).toBe('"the ""best"" data"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('carriage\rreturn')).toBe('"carriage\rreturn"');
  });

  it('ends every line with CRLF', () => {
    expect(csvLine(['a', 'b'])).toBe('a,b\r\n');
  });
});

describe('safe and readable cells', () => {
  it('neutralises formulas the way OWASP recommends, recoverably', () => {
    for (const value of ['=HYPERLINK("http://evil.example","x")', "+cmd|' /C calc'!A0", '-2+3', '@SUM(A1)', '\tlead', '\rlead']) {
      const written = csvField(value);
      const read = parseCsv(`${written}\r\n`)[0]![0];
      expect(read).toBe(`'${value}`);
      expect(read!.slice(1)).toBe(value);
    }
    expect(csvField('a = b')).toBe('a = b');
  });

  it('writes titles and descriptions as plain text: entities decoded, markup gone', () => {
    const [header, row] = parseCsv(
      recordsToCsv(lit, [
        { repo_id: '1', title: 'Alfv&eacute;n 10<sup>13</sup> CO<sub>2</sub>', description: '<p>One</p><ul><li>two</ul>' },
      ]),
    );
    expect(row![header!.indexOf('title')]).toBe('Alfvén 10¹³ CO₂');
    expect(row![header!.indexOf('description')]).toBe('One\n\n• two');
  });
});

describe('recordsToCsv', () => {
  const record: ApiRecord = {
    repo_id: '1828290',
    title: 'A KBase Case Study, "Sorghum"\nsecond line',
    authors: ['Kumari, Sunita [Cold Spring Harbor Laboratory Cold Spring Harbor, NY (United States)]', 'Smith, J.'],
    subjects: ['59 BASIC BIOLOGICAL SCIENCES', 'transcriptomics, metabolism, sorghum'],
    doi: 'https://doi.org/10.25982/101788.79/1828290',
    publication_date: '2021-11-01T00:00:00Z',
    research_orgs: null,
    links: [
      { rel: 'citation', href: 'https://www.osti.gov/biblio/1828290' },
      { rel: 'fulltext', href: 'https://www.osti.gov/servlets/purl/1828290' },
    ],
  };

  it('has a header of the deployment’s field names and the generated-record note, and one row per record', () => {
    const rows = parseCsv(recordsToCsv(lit, [record, { repo_id: '2' }]));
    expect(rows[0]).toEqual([...lit.fields.map((field) => field.name), 'x_generated_note']);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toHaveLength(lit.fields.length + 1);
  });

  it('writes each field where its column says, authors joined with " | ", other lists with "; ", links as "rel: href"', () => {
    const [header, row] = parseCsv(recordsToCsv(lit, [record]));
    const cell = (name: string) => row![header!.indexOf(name)];
    expect(cell('repo_id')).toBe('1828290');
    expect(cell('title')).toBe('A KBase Case Study, "Sorghum"\nsecond line');
    expect(cell('authors')).toBe('Kumari, Sunita [Cold Spring Harbor Laboratory Cold Spring Harbor, NY (United States)] | Smith, J.');
    expect(cell('subjects')).toBe('59 BASIC BIOLOGICAL SCIENCES; transcriptomics, metabolism, sorghum');
    expect(cell('links')).toBe('citation: https://www.osti.gov/biblio/1828290; fulltext: https://www.osti.gov/servlets/purl/1828290');
    expect(cell('research_orgs')).toBe('');
    expect(cell('journal_name')).toBe('');
  });

  it('writes numbers as numbers (DC1 dataset_size)', () => {
    const dc1 = must('DC1');
    const [header, row] = parseCsv(recordsToCsv(dc1, [{ repo_id: '1', dataset_size: 4_280_000 }]));
    expect(row![header!.indexOf('dataset_size')]).toBe('4280000');
  });

  it('starts with a UTF-8 byte order mark only when asked', () => {
    expect(recordsToCsv(lit, [record]).startsWith(utf8Bom)).toBe(false);
    const withBom = recordsToCsv(lit, [record], { bom: true });
    expect(withBom.startsWith(utf8Bom)).toBe(true);
    expect(parseCsv(withBom.slice(1))[0]![0]).toBe('repo_id');
  });

  it('builds the same file from a header and rows written one at a time (streaming)', () => {
    const records = [record, { repo_id: '2', title: 'Two' }, { repo_id: '3' }];
    const streamed = csvHeader(lit, { bom: true }) + records.map((item) => csvRow(lit, item)).join('');
    expect(streamed).toBe(recordsToCsv(lit, records, { bom: true }));
  });

  it('writes arbitrary field values of every deployment as their plain text (property)', () => {
    const cell = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
    fc.assert(
      fc.property(fc.constantFrom(...deployments), fc.array(awkwardText, { maxLength: 3 }), awkwardText, (deployment, list, value) => {
        const item: ApiRecord = { repo_id: 'x', title: value, authors: list, description: value };
        const [header, row] = parseCsv(recordsToCsv(deployment, [item]));
        // Blanks and the upstream's placeholders ("n/a", "None") are no value.
        expect(row![header!.indexOf('title')]).toBe(knownText(value) === undefined ? '' : cell(toPlainText(value)));
        expect(row![header!.indexOf('authors')]).toBe(
          cell(
            list
              .filter((entry) => knownText(entry) !== undefined)
              .map(toPlainText)
              .join(' | '),
          ),
        );
      }),
      { numRuns: 200, examples: [[lit, ['n/a', 'Curie, Marie', ' '], 'na']] },
    );
  });
});
