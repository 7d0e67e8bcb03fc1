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
import { queryTokenizer } from './query-tokenizer';
import { unicodeText } from './unicode-text.test-support';

const db = new Database(':memory:');
afterAll(() => db.close());

/** FTS5's own tokens of a text, through an FTS5 table with the store's tokenizer. */
const fts5Tokens = scratchTokenizer(db, 'reference_tokens');

/** The tokenizer under test, counting the texts it hands to FTS5. */
let asked = 0;
const fallback = scratchTokenizer(db, 'fallback_tokens');
const tokenize = queryTokenizer((text) => {
  asked++;
  return fallback(text);
});

function realTexts(): string[] {
  const sources: [string, string[]][] = [
    ['DC1', [realFiles.geothermal, realFiles.plasma]],
    ['LIT', [realFiles.litJson, realFiles.litXml]],
  ];
  return sources.flatMap(([key, files]) => {
    const deployment = deploymentByKey(key)!;
    const records = readUpstreamFiles(
      deployment,
      files.map((file) => fileURLToPath(new URL(file, realData))),
    );
    return records.flatMap((stored) => {
      const columns = textColumns(deployment, stored);
      return searchColumns.map((column) => columns[column]);
    });
  });
}

describe('the query tokenizer', () => {
  it("gives FTS5's tokens for every column of every real record, and each of their words, without asking FTS5 once it knows the characters", () => {
    const texts = realTexts();
    const words = [...new Set(texts.flatMap((text) => text.split(/\s+/)))];
    expect(words.length).toBeGreaterThan(10_000);
    for (const text of texts) expect(tokenize(text)).toEqual(fts5Tokens(text));
    asked = 0;
    for (const word of words) expect(tokenize(word)).toEqual(fts5Tokens(word));
    expect(asked).toBe(0);
  });

  it("gives FTS5's tokens, in FTS5's order, for random Unicode text and English-like words", () => {
    fc.assert(
      fc.property(unicodeText, (text) => {
        expect(tokenize(text)).toEqual(fts5Tokens(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("gives FTS5's tokens for every character of the basic plane, starting, inside and ending a word, doubled and alone", () => {
    const mismatched: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const c = String.fromCharCode(code);
      const text = `${c}ing Rat${c}${c}ed fil${c}s ${c}`;
      if (JSON.stringify(tokenize(text)) !== JSON.stringify(fts5Tokens(text)))
        mismatched.push(`${code.toString(16)} ${JSON.stringify(tokenize(text))} ${JSON.stringify(fts5Tokens(text))}`);
    }
    expect(mismatched).toEqual([]);
  });

  it('hands FTS5 text with a lone surrogate whole, as FTS5 reads it', () => {
    for (const text of ['a\ud800b', 'caf\udc00és']) expect(tokenize(text)).toEqual(fts5Tokens(text));
  });
});
