import { expect, test } from 'vitest';
import { authorNames, excerpt, formatCount, formatDate } from './format';

test('counts as the live region says them', () => {
  expect(formatCount(0)).toBe('No results');
  expect(formatCount(1)).toBe('1 result');
  expect(formatCount(1234)).toBe('1,234 results');
});

test('dates are UTC days; other text is left alone', () => {
  expect(formatDate('2024-04-20T04:00:00Z')).toEqual({ text: 'Apr 20, 2024', iso: '2024-04-20' });
  expect(formatDate('2024-01-01T00:00:00-05:00').iso).toBe('2024-01-01');
  expect(formatDate('sometime')).toEqual({ text: 'sometime' });
});

test('excerpts cut at a word and say so', () => {
  expect(excerpt('short text')).toBe('short text');
  const long = 'word '.repeat(100);
  const cut = excerpt(long, 50);
  expect(cut.length).toBeLessThanOrEqual(51);
  expect(cut.endsWith('word…')).toBe(true);
});

test('author names without affiliation or ORCID, limited', () => {
  expect(authorNames(['Curie, Marie [Sorbonne] (ORCID:0000000218250097)', 'Bohr, N.'])).toEqual({
    names: ['Curie, Marie', 'Bohr, N.'],
    more: 0,
  });
  expect(authorNames(['a', 'b', 'c'], 2)).toEqual({ names: ['a', 'b'], more: 1 });
});
