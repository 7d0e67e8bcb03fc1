import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { escapeBibtex, recordsToBibtex } from '../../formats/bibtex';
import { recordsToFullBibtex } from '../../formats/bibtex-full';
import { deployments } from '../../deployments/registry';
import { knownText } from '../../formats/known-values';
import { parseRis } from '../../formats/ris-reader';
import { recordsToRis } from '../../formats/ris';
import { generateRecords } from '../corpus/generate';
import { readUpstreamFiles } from './files';
import { deployment, realData, realFiles } from './real-files.test-support';

/**
 * The API's and the full BibTeX, and RIS, for every shipped real record, and for hostile titles, read back by the
 * parsers reference managers use: citation-js, Debian's bibtool, and a plain brace counter.
 */

const dir = mkdtempSync(join(tmpdir(), 'records-bibtex-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bibtoolMissing = spawnSync('bibtool', ['-h']).error ? 'bibtool is not installed (apt-get install bibtool)' : undefined;
if (bibtoolMissing) console.log(`bibtool round trip skipped: ${bibtoolMissing}`);

const file = (name: string) => new URL(name, realData).pathname;
const realDc1 = readUpstreamFiles(deployment('DC1'), [file(realFiles.geothermal), file(realFiles.plasma)]).map((stored) => stored.record);
const realLit = readUpstreamFiles(deployment('LIT'), [file(realFiles.litJson), file(realFiles.litXml)]).map((stored) => stored.record);

function realGroups(): Groups {
  return [
    [deployment('DC1'), realDc1],
    [deployment('LIT'), realLit],
  ];
}

const hostile = (title: string, description = ''): ApiRecord => ({
  repo_id: String(title.length),
  title,
  description,
  authors: ['Doe, J.'],
});
const hostileRecords = [
  hostile('A } closing brace'),
  hostile('An { opening brace'),
  hostile('}{ both }} and a \\ backslash', '50% of $x_1$ & #2 ~ ^'),
  hostile('<i>{</i>'),
];

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
  ['API', (_deployment: Deployment, records: readonly ApiRecord[], prefix: string) => recordsToBibtex(records, prefix)],
  ['full', recordsToFullBibtex],
] as const;
/** Records by the deployment they belong to: the full BibTeX reads their fields by its roles. */
type Groups = readonly (readonly [Deployment, readonly ApiRecord[]])[];
const recordSets: readonly (readonly [string, Groups])[] = [
  ['every shipped real record', realGroups()],
  ['titles with braces, backslashes and TeX specials', [[deployment('LIT'), hostileRecords]]],
  // Every product type of every deployment: articles, reports, patents, theses, videos.
  [
    'generated records of every deployment',
    deployments.map((each) => [each, [...generateRecords(each, 60, { seed: 7 })].map((stored) => stored.record)] as const),
  ],
];

describe.each(codecs.flatMap(([codec, write]) => recordSets.map(([name, groups]) => [codec, name, write, groups] as const)))(
  'the %s BibTeX of %s',
  (_codec, _name, write, groups) => {
    const bibtex = groups.map(([each, records]) => write(each, records, 'records')).join('\n');
    const records = groups.flatMap(([, each]) => each);

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
  },
);

/** Upstream placeholders ("None", "null", "NONE") are no value in any citation format. */
const placeholderValue = /=\s*\{\s*(none|null|n\/?a|not available)?\s*\},?$/i;

describe("the shipped real records, with the upstream's placeholders", () => {
  it('hold them (the check below would pass vacuously otherwise)', () => {
    expect(realDc1.filter((record) => String(record.product_number).match(/^(None|null)$/)).length).toBeGreaterThan(100);
  });

  it('write no placeholder in the full BibTeX, and every real number as it is', () => {
    const bibtex = realGroups()
      .map(([each, records]) => recordsToFullBibtex(each, records, 'records'))
      .join('\n');
    expect(
      bibtex
        .split('\n')
        .filter((line) => placeholderValue.test(line))
        .slice(0, 3),
    ).toEqual([]);
    // citation-js reads no number of a @misc: the entries are checked as text.
    const entries = new Map(bibtex.split(/\n(?=@)/).map((entry) => [/^@\w+\{([^,]+),/.exec(entry)![1], entry]));
    const numbered = realDc1.filter((record) => knownText(String(record.product_number ?? '')));
    expect(numbered.length).toBeGreaterThan(50);
    for (const record of realDc1) {
      const number = /^ {2}number = \{(.*)\},?$/m.exec(entries.get(`records_${record.repo_id}`)!)?.[1];
      expect(number, record.repo_id).toBe(numbered.includes(record) ? escapeBibtex(String(record.product_number)) : undefined);
    }
  });

  it.each([
    ['DC1', realDc1],
    ['LIT', realLit],
  ] as const)('%s: RIS reads back one record each, with title, DOI and publisher, and no placeholder', (key, records) => {
    const entries = parseRis(recordsToRis(deployment(key), records));
    expect(entries).toHaveLength(records.length);
    entries.forEach((entry, index) => {
      const record = records[index]!;
      const tag = (name: string) => entry.filter(([found]) => found === name).map(([, value]) => value);
      expect(tag('ID')).toEqual([`${deployment(key).slug}-${record.repo_id}`]);
      expect(tag('TI')).toHaveLength(1);
      if (record.doi) expect(tag('DO')[0]).toMatch(/^10\./);
      for (const [name, value] of entry.filter(([found]) => found !== 'ER'))
        expect(knownText(value), `${record.repo_id} ${name}`).toBe(value);
    });
    // A dataset is issued by the organisation that made it: RIS names it as publisher.
    expect(entries.filter((entry) => entry.some(([name]) => name === 'PB')).length).toBeGreaterThan(records.length / 2);
  });
});
