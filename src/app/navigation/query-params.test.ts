import { expect, test } from 'vitest';
import { entriesOf, firstValues, nonEmpty, withValues } from './query-params';

test('entries keep order and repeats; first values skip empties', () => {
  const entries = entriesOf('?q=a&author=&q=b&rows=10');
  expect(entries).toEqual([
    ['q', 'a'],
    ['author', ''],
    ['q', 'b'],
    ['rows', '10'],
  ]);
  expect(firstValues(entries)).toEqual({ q: 'a', rows: '10' });
  expect(nonEmpty(entries)).toHaveLength(3);
});

test('withValues replaces in place, appends new, removes undefined', () => {
  expect(withValues(entriesOf('?page=2&q=x&rows=5'), { page: '3', rows: undefined, sort: 'title' })).toEqual([
    ['page', '3'],
    ['q', 'x'],
    ['sort', 'title'],
  ]);
});
