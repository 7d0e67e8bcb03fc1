import Database from 'better-sqlite3';
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { searchColumns } from '../../../deployments/schema';
import { textColumns } from '../../../formats/index-text';
import { readUpstreamFiles } from '../../import/files';
import { realData, realFiles } from '../../import/real-files.test-support';
import { scratchTokenizer } from './fts5-adapter';
import { PieceTokenizer } from './token-runs';

const db = new Database(':memory:');
afterAll(() => db.close());

/** FTS5's own tokens of a text, through an FTS5 table with the store's tokenizer. */
const fts5Tokens = scratchTokenizer(db, 'reference_tokens');
const tokenizer = new PieceTokenizer(db, 'piece_tokens');

/** The tokens the piece tokenizer gives each text, as strings. */
function pieceTokens(texts: readonly string[]): string[][] {
  const { tokens, ends } = tokenizer.tokenize(texts);
  return texts.map((_, i) => Array.from(tokens.subarray(i === 0 ? 0 : ends[i - 1], ends[i]), (n) => tokenizer.tokens[n]!));
}

const range = (from: number, to: number) => fc.integer({ min: from, max: to }).map((code) => String.fromCodePoint(code));

/** Characters where tokenizers differ: ASCII punctuation, letters with marks and the marks alone, other scripts, ligatures, private use, astral, lone surrogates. */
const char = fc.oneof(
  { weight: 6, arbitrary: range(0x20, 0x7e) },
  { weight: 2, arbitrary: range(0, 0x1f) },
  { weight: 3, arbitrary: range(0xa0, 0x24f) },
  { weight: 3, arbitrary: range(0x300, 0x36f) },
  { weight: 2, arbitrary: range(0x370, 0x52f) },
  { weight: 1, arbitrary: range(0x590, 0x6ff) },
  { weight: 1, arbitrary: range(0x900, 0x97f) },
  { weight: 1, arbitrary: range(0x1e00, 0x1eff) },
  { weight: 1, arbitrary: range(0x2000, 0x2bff) },
  { weight: 1, arbitrary: range(0x3000, 0x30ff) },
  { weight: 1, arbitrary: range(0x4e00, 0x4e40) },
  { weight: 1, arbitrary: range(0xe000, 0xe010) },
  { weight: 1, arbitrary: range(0xfb00, 0xfb06) },
  { weight: 1, arbitrary: range(0xff00, 0xffef) },
  { weight: 1, arbitrary: range(0x1d400, 0x1d7ff) },
  { weight: 1, arbitrary: range(0x1f300, 0x1f6ff) },
  { weight: 1, arbitrary: range(0, 0x10ffff) },
  { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udc00', '\udbff') },
);

/** English-like words, which Porter's stemmer changes, in any case. */
const word = fc.oneof(
  fc.constantFrom(
    'running',
    'Connections',
    'generalizations',
    'relational',
    'hopefulness',
    'ponies',
    'caresses',
    'agreed',
    'feudalism',
    'sensibiliti',
    'skies',
    'dying',
    'électricité',
    'Straße',
    'naïve',
    'œuvre',
    'ﬁnancial',
  ),
  fc.stringMatching(/^[a-zA-Z]{1,14}(ing|ed|es|s|ation|ness|ful|ly|izer|ism|ive|ize|ent|er)?$/),
);

const text = fc.array(fc.oneof(char, word, fc.constantFrom(' ', '-', "'", '.')), { maxLength: 60 }).map((parts) => parts.join(''));

describe('the piece tokenizer', () => {
  it("gives FTS5's tokens, in FTS5's order, for random Unicode text", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 12 }), (texts) => {
        expect(pieceTokens(texts)).toEqual(texts.map(fts5Tokens));
      }),
      { numRuns: 400 },
    );
  });

  it("gives FTS5's tokens for every column of every real record", () => {
    const sources: [string, string[]][] = [
      ['DC1', [realFiles.geothermal, realFiles.plasma]],
      ['LIT', [realFiles.litJson, realFiles.litXml]],
    ];
    let checked = 0;
    for (const [key, files] of sources) {
      const deployment = deploymentByKey(key)!;
      const records = readUpstreamFiles(
        deployment,
        files.map((file) => fileURLToPath(new URL(file, realData))),
      );
      const texts = records.flatMap((stored) => {
        const columns = textColumns(deployment, stored);
        return searchColumns.map((column) => columns[column]);
      });
      expect(pieceTokens(texts)).toEqual(texts.map(fts5Tokens));
      checked += records.length;
    }
    expect(checked).toBeGreaterThan(450);
  });
});
