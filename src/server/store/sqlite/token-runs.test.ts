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
import { unicodeText } from './unicode-text.test-support';

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

describe('the piece tokenizer', () => {
  it("gives FTS5's tokens, in FTS5's order, for random Unicode text", () => {
    fc.assert(
      fc.property(fc.array(unicodeText, { minLength: 1, maxLength: 12 }), (texts) => {
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

  it("tokenizes the real records' new pieces in JavaScript once FTS5 has shown it their characters, and gives FTS5's tokens", () => {
    const fresh = new PieceTokenizer(db, 'fresh_piece_tokens');
    const deployment = deploymentByKey('LIT')!;
    const records = readUpstreamFiles(deployment, [fileURLToPath(new URL(realFiles.litJson, realData))]);
    const texts = records.flatMap((stored) => {
      const columns = textColumns(deployment, stored);
      return searchColumns.map((column) => columns[column]);
    });
    const { tokens, ends } = fresh.tokenize(texts);
    const given = texts.map((_, i) => Array.from(tokens.subarray(i === 0 ? 0 : ends[i - 1], ends[i]), (n) => fresh.tokens[n]!));
    expect(given).toEqual(texts.map(fts5Tokens));
    expect(fresh.tokens.length).toBeGreaterThan(1000);
    expect(fresh.fts5Pieces).toBe(0);
  });

  it('hands FTS5 a piece with a lone surrogate, and gives its tokens', () => {
    const fresh = new PieceTokenizer(db, 'surrogate_piece_tokens');
    const texts = ['caf\udc00és au lait', 'x\ud800y'];
    const { tokens, ends } = fresh.tokenize(texts);
    const given = texts.map((_, i) => Array.from(tokens.subarray(i === 0 ? 0 : ends[i - 1], ends[i]), (n) => fresh.tokens[n]!));
    expect(given).toEqual(texts.map(fts5Tokens));
    expect(fresh.fts5Pieces).toBe(2);
  });
});
