import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
// eslint-disable-next-line boundaries/dependencies -- a test: the browser's word folding must match the server's FTS5 tokenizer.
import { ftsTokenizer } from '../server/store/sqlite/schema';
import { indexTokens, matchRanges, queryTerms } from './query-words';

const marked = (text: string, query: string) => matchRanges(text, queryTerms([query])).map(([start, end]) => text.slice(start, end));

describe('indexTokens folds as the server’s index does', () => {
  test('the same terms as FTS5 porter unicode61 remove_diacritics 2', () => {
    const words = [
      'Happiness',
      'running',
      'ELECTRICITY',
      'Alfvén',
      'generalization',
      'archaeology',
      'CO2',
      'sensibility',
      'Müller',
      'naïve',
      'plasmas',
      'tokamaks',
      'ab',
    ];
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='${ftsTokenizer}'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row');`);
    const insert = db.prepare('INSERT INTO t(x) VALUES (?)');
    for (const word of words) insert.run(word);
    const server = (db.prepare('SELECT term FROM v').all() as { term: string }[]).map((row) => row.term).sort();
    const ours = [...new Set(words.flatMap((word) => indexTokens(word).map((token) => token.term)))].sort();
    expect(ours).toEqual(server);
    db.close();
  });
});

describe('matchRanges', () => {
  test('a word matches its other forms, any case and diacritics', () => {
    expect(marked('Plasma heating of Plasmas in the plasma-wall', 'plasma')).toEqual(['Plasma', 'Plasmas', 'plasma']);
    expect(marked('Alfvén waves', 'alfven')).toEqual(['Alfvén']);
  });

  test('a phrase matches only its words in order, as one range', () => {
    expect(marked('magnetic field of a field magnetic', '"magnetic fields"')).toEqual(['magnetic field']);
  });

  test('a prefix matches the stems it begins', () => {
    expect(marked('Electricity and electrons, not elk', 'electr*')).toEqual(['Electricity', 'electrons']);
  });

  test('excluded words are not matches; operators are not words', () => {
    expect(marked('solar wind and solar power', 'solar -wind NOT power')).toEqual(['solar', 'solar']);
    expect(marked('solar wind and solar power', 'solar AND -(wind OR power)')).toEqual(['solar', 'solar']);
    expect(marked('this or that', 'this OR that')).toEqual(['this', 'that']);
  });

  test('nothing to match: no ranges', () => {
    expect(marked('anything', '')).toEqual([]);
    expect(marked('anything', '-anything')).toEqual([]);
  });
});
