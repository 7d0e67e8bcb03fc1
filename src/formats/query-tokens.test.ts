import { describe, expect, it } from 'vitest';
import { tokenizeQuery } from './query-tokens';

describe('tokenizeQuery', () => {
  it('negates a word, phrase or group where a `-` begins it', () => {
    expect(tokenizeQuery('-data -"molten salt" -(a)').filter((token) => 'negated' in token && token.negated)).toHaveLength(3);
    expect(tokenizeQuery('plasma (-edge)')).toContainEqual({ kind: 'word', text: 'edge', prefix: false, negated: true });
  });

  it('reads a `-` after a closing parenthesis as part of the text, as titles write well names ("16B(78)-32")', () => {
    expect(tokenizeQuery('Well 16B(78)-32')).toEqual([
      { kind: 'word', text: 'Well', prefix: false, negated: false },
      { kind: 'word', text: '16B', prefix: false, negated: false },
      { kind: 'open', negated: false },
      { kind: 'word', text: '78', prefix: false, negated: false },
      { kind: 'close' },
      { kind: 'word', text: '-32', prefix: false, negated: false },
    ]);
  });
});
