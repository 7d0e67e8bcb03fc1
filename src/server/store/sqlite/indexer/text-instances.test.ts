import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../../deployments/registry';
import { searchColumns, type SearchColumn } from '../../../../deployments/schema';
import { textColumns } from '../../../../formats/index-text';
import { generateRecords } from '../../../corpus/generate';
import { documentLengths, eachTokenInstances, indexText, maxTokenChars } from '../fts5-adapter';
import { parseInstances } from './postings';
import { compareCodePoints } from './instance-ranges';
import { textInstances } from './text-instances';

const db = new Database(':memory:');
afterAll(() => db.close());

const lit = deploymentByKey('LIT')!;
const empty = Object.fromEntries(searchColumns.map((column) => [column, ''])) as Record<SearchColumn, string>;

/** Generated records' text, with ids that skip, and texts a build must count the same way: none, long tokens, astral and accented words. */
const texts: [number, Record<SearchColumn, string>][] = [
  ...[...generateRecords(lit, 400, { seed: 3 })].map((stored, i): [number, Record<SearchColumn, string>] => [
    1 + i * 2,
    textColumns(lit, stored),
  ]),
  [900, empty],
  [901, { ...empty, title: `${'x'.repeat(maxTokenChars)} ${'y'.repeat(maxTokenChars + 1)} ${'\u{1d400}'.repeat(maxTokenChars)} running` }],
  [905, { ...empty, description: 'Ｆｕｌｌ-width ＡＢＣ, 𝐀𝐁𝐂 and ÉCOLE école \ue000 x\u0301y', title: 'œuvre ﬁnancial Straße' }],
  [70_000, { ...empty, title: 'running far beyond', fulltext: 'Straße '.repeat(3000) }],
];

/** What FTS5 gives for the same texts: an index of them read back by fts5vocab. */
function fromFts5(): { lengths: Uint32Array; rows: number; tokens: number; instances: [string, number[]][] } {
  indexText(db, 'reference', texts);
  try {
    const instances: [string, number[]][] = [];
    eachTokenInstances(db, 'reference', (term, text) => instances.push([term, [...parseInstances(text)]]));
    return { ...documentLengths(db, 'reference'), instances };
  } finally {
    db.exec('DROP TABLE temp.reference');
  }
}

function fromPieces(ranges: { rangeBytes?: number; rangeTokens?: number } = {}) {
  const gathered = textInstances(db, 'gathered', texts, ranges);
  try {
    const instances: [string, number[]][] = [];
    gathered.each((term, triples) => instances.push([term, [...triples]]));
    return { lengths: gathered.lengths, rows: gathered.rows, tokens: gathered.tokens, instances };
  } finally {
    gathered.drop();
  }
}

describe("a build's token instances", () => {
  const expected = fromFts5();

  it('are what an FTS5 index of the text gives: every token, in order, each instance, and each record length', () => {
    expect(expected.instances.length).toBeGreaterThan(1000);
    expect(fromPieces()).toEqual(expected);
  });

  it('are the same gathered in many ranges, each written out and joined', () => {
    expect(fromPieces({ rangeBytes: 20_000 })).toEqual(expected);
    expect(fromPieces({ rangeTokens: 500 })).toEqual(expected);
  });

  it('order tokens by their UTF-8 bytes, as FTS5 and SQLite do', () => {
    const tokens = ['\u{1f600}', '\uffe0', 'z', '\u00e9', '\ue000', 'a'];
    const bytes = [...tokens].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect([...tokens].sort(compareCodePoints)).toEqual(bytes);
  });
});
