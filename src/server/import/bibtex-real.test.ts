import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../deployments/registry';
import { recordsToBibtex } from '../../formats/bibtex';
import { recordsToFullBibtex } from '../../formats/bibtex-full';
import { deployments } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { readUpstreamFiles } from './files';
import { deployment, realData, realFiles } from './test-support';

/**
 * The API's and the full BibTeX for every shipped real record, and for hostile titles, read back by the
 * parsers reference managers use: citation-js, Debian's bibtool, and a plain brace counter.
 */

const dir = mkdtempSync(join(tmpdir(), 'records-bibtex-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bibtoolMissing = spawnSync('bibtool', ['-h']).error ? 'bibtool is not installed (apt-get install bibtool)' : undefined;
if (bibtoolMissing) console.log(`bibtool round trip skipped: ${bibtoolMissing}`);

function realRecords(): ApiRecord[] {
  const file = (name: string) => new URL(name, realData).pathname;
  return [
    ...readUpstreamFiles(deployment('DC1'), [file(realFiles.geothermal), file(realFiles.plasma)]),
    ...readUpstreamFiles(deployment('LIT'), [file(realFiles.litJson), file(realFiles.litXml)]),
  ].map((stored) => stored.record);
}

const hostile = (title: string, description = ''): ApiRecord => ({ repo_id: String(title.length), title, description, authors: ['Doe, J.'] }) as ApiRecord;
const hostileRecords = [hostile('A } closing brace'), hostile('An { opening brace'), hostile('}{ both }} and a \\ backslash', '50% of $x_1$ & #2 ~ ^'), hostile('<i>{</i>')];

/** Every entry's braces balance, counting as BibTeX does (a backslash does not escape a brace for it). */
function unbalancedEntries(bibtex: string): string[] {
  return bibtex
    .split(/\n(?=@)/)
    .filter((entry) => {
      let depth = 0;
      for (const char of entry) {
        if (char === '{') depth++;
        if (char === '}' && --depth < 0) return true;
      }
      return depth !== 0;
    })
    .map((entry) => entry.slice(0, 80));
}

const codecs = [
  ['API', recordsToBibtex],
  ['full', recordsToFullBibtex],
] as const;
const recordSets = [
  ['every shipped real record', realRecords()],
  ['titles with braces, backslashes and TeX specials', hostileRecords],
  // Every product type of every deployment: articles, reports, patents, theses, videos.
  ['generated records of every deployment', deployments.flatMap((each) => [...generateRecords(each, 60, { seed: 7 })].map((stored) => stored.record))],
] as const;

describe.each(codecs.flatMap(([codec, write]) => recordSets.map(([name, records]) => [codec, name, write, records] as const)))('the %s BibTeX of %s', (_codec, _name, write, records) => {
  const bibtex = write(records, 'records');

  it('keeps every entry balanced for a brace-counting parser', () => {
    expect(records.length).toBeGreaterThan(0);
    expect(unbalancedEntries(bibtex)).toEqual([]);
  });

  it('reads back in citation-js, one entry per record, entities decoded and braces as braces', () => {
    const items = new Cite(bibtex).data as { id: string; title?: string }[];
    expect(items.map((item) => item.id)).toEqual(records.map((record) => `records_${record.repo_id}`));
    // citation-js turns \emph and \textsuperscript into CSL's rich-text tags; nothing else may be left.
    for (const item of items) expect(item.title ?? '').not.toMatch(/<\/?(p|br|ul|li)>|&[a-z]+;|\\[a-z]/i);
    if (records === hostileRecords) expect(items.map((item) => item.title)).toContain('A } closing brace');
  });

  it.skipIf(bibtoolMissing)('passes bibtool without a warning', () => {
    const path = join(dir, 'records.bib');
    writeFileSync(path, bibtex);
    // bibtool knows BibTeX's entry types; the full BibTeX's @patent is biblatex's, so it is declared.
    const result = spawnSync('bibtool', ['--', 'new.entry.type{patent}', path, '-o', join(dir, 'out.bib')], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(execFileSync('grep', ['-c', '^@', join(dir, 'out.bib')], { encoding: 'utf8' }).trim()).toBe(String(records.length));
  });
});
