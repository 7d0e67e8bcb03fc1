import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { readSearchBox } from './search-box';
import { isPlainQuery } from './use-search-box';

const lit = deploymentByKey('LIT')!;

describe('readSearchBox', () => {
  it('moves field terms into parameters, keeps the free words and the other criteria, and drops the page', () => {
    expect(
      readSearchBox(
        lit,
        [
          ['q', 'plasma author:Fredrickson type:Book'],
          ['language', 'English'],
          ['page', '3'],
        ],
        true,
      ),
    ).toEqual({
      kind: 'fielded',
      entries: [
        ['q', 'plasma'],
        ['language', 'English'],
        ['author', 'Fredrickson'],
        ['product_type', 'Book'],
      ],
    });
  });

  it('narrows a text criterion of the form together with the box’s; sets the others', () => {
    expect(
      readSearchBox(
        lit,
        [
          ['q', 'author:Smith language:French'],
          ['author', 'Jones'],
          ['language', 'English'],
        ],
        true,
      ),
    ).toEqual({
      kind: 'fielded',
      entries: [
        ['author', 'Jones Smith'],
        ['language', 'French'],
      ],
    });
  });

  it('leaves a box without fields as it is, and stops one with a problem', () => {
    expect(
      readSearchBox(
        lit,
        [
          ['q', 'solar cell'],
          ['title', 'x'],
        ],
        true,
      ),
    ).toEqual({ kind: 'as-is' });
    expect(readSearchBox(lit, [['title', 'x']], true)).toEqual({ kind: 'as-is' });
    expect(readSearchBox(lit, [['q', 'autor:Smith']], true)).toEqual({
      kind: 'problem',
      message: '“autor:” is not a search field. Did you mean author:?',
    });
    expect(readSearchBox(lit, [['q', '*']], true)).toEqual({ kind: 'problem', message: '“*” has no words to search for.' });
  });
});

describe('isPlainQuery', () => {
  const plain = ['solar cell', '"solar cell" -wind', '(solar OR wind) storage', 'Müller', 'CO₂', '核融合', 'NOT wind', '10.1/x'];
  const notPlain = ['author:Smith', 'http://x', '*', 'NOT', 'OR AND', '🔥', '%', '""', '"OR"', '( )', ''];
  it('passes only boxes the reader would leave as they are', () => {
    for (const text of plain) {
      expect(isPlainQuery(text), text).toBe(true);
      expect(readSearchBox(lit, [['q', text]], true), text).toEqual({ kind: 'as-is' });
    }
    for (const text of notPlain) expect(isPlainQuery(text), text).toBe(false);
  });
});
