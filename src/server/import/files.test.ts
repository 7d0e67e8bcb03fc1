import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readUpstreamFiles } from './files';
import { deployment, importError, realData, realFiles } from './real-files.test-support';

const real = (name: string) => fileURLToPath(new URL(name, realData));
const geothermal = real(realFiles.geothermal);
const plasma = real(realFiles.plasma);
const litJson = real(realFiles.litJson);
const litXml = real(realFiles.litXml);

const dc1 = deployment('DC1');
const lit = deployment('LIT');

const scratch = mkdtempSync(join(tmpdir(), 'records-import-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const tempFile = (name: string, content: string) => {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
};

const ids = (records: readonly { record: { repo_id: string } }[]) => records.map((stored) => stored.record.repo_id);

describe('readUpstreamFiles', () => {
  it('imports both dataset catalog files without duplicates', () => {
    const records = readUpstreamFiles(dc1, [geothermal, plasma]);
    // 250 + 209 records: 3 ids occur in both files and 20 twice within the plasma-lab
    // file, so 436 distinct records (the data README's "8 shared" undercounts this).
    expect(records).toHaveLength(436);
    expect(new Set(ids(records)).size).toBe(436);
    expect(ids(records)).toContain('2368548');
  });

  it('keeps the later file’s version of a record found in several files', () => {
    const plasmaLast = readUpstreamFiles(dc1, [geothermal, plasma]).find((stored) => stored.record.repo_id === '1366755');
    expect(plasmaLast?.record).toMatchObject({ entry_date: '2019-04-25T00:00:00Z', dataset_size: 0 });
    const geothermalLast = readUpstreamFiles(dc1, [plasma, geothermal]).find((stored) => stored.record.repo_id === '1366755');
    expect(geothermalLast?.record).toMatchObject({ entry_date: '2019-04-24T22:49:31Z', dataset_size: null });
  });

  it('collapses a record repeated within one file', () => {
    const path = tempFile(
      'repeated.json',
      JSON.stringify([
        { osti_id: '1', title: 'first' },
        { osti_id: '2', title: 'other' },
        { osti_id: '1', title: 'second' },
      ]),
    );
    const records = readUpstreamFiles(lit, [path]);
    expect(ids(records)).toEqual(['1', '2']);
    expect(records[0]?.record.title).toBe('second');
  });

  it('mixes JSON and XML files of one deployment', () => {
    // Every id of the XML sample is also in the JSON file.
    const records = readUpstreamFiles(lit, [litJson, litXml]);
    expect(records).toHaveLength(40);
    const re_entered = records.find((stored) => stored.record.repo_id === '1637360');
    expect(re_entered?.record.entry_date).toBe('2022-07-29T00:00:00Z');
  });

  it('tells JSON from XML by content, not by file name', () => {
    const xmlNamedJson = tempFile('really-xml.json', '\uFEFF\n  <records><record><osti_id>10</osti_id></record></records>');
    const jsonNamedTxt = tempFile('really-json.txt', '\n [{"osti_id": "11"}]');
    expect(ids(readUpstreamFiles(lit, [xmlNamedJson, jsonNamedTxt]))).toEqual(['10', '11']);
  });

  it('fails on a missing file even after good ones, returning nothing', () => {
    const missing = join(scratch, 'missing.json');
    const error = importError(() => readUpstreamFiles(lit, [litJson, missing]));
    expect(error.message).toBe(`${missing}: cannot read the file: no such file`);
  });

  it('fails on a malformed file named in the message', () => {
    const broken = tempFile('broken.json', '[{"osti_id": "1", "authors": 5}]');
    const error = importError(() => readUpstreamFiles(lit, [litXml, broken]));
    expect(error.message).toBe(`${broken}, record 1 (id 1), field authors: expected a list of strings, got number 5`);
  });

  it('refuses empty files and content that is neither JSON nor XML', () => {
    const empty = tempFile('empty.json', '  \n');
    expect(importError(() => readUpstreamFiles(lit, [empty])).message).toBe(`${empty}: the file is empty`);
    const csv = tempFile('records.csv', 'osti_id,title\n1,x\n');
    expect(importError(() => readUpstreamFiles(lit, [csv])).message).toBe(`${csv}: neither JSON nor XML: the content starts with "o"`);
  });
});
