import { expect, test } from 'vitest';
import { similarQuery } from './similar-query';

test('title words and subject phrases, any of them', () => {
  expect(
    similarQuery({ repo_id: '1', title: 'Transport of CO<sub>2</sub> in the Plasma edge', subjects: ['Plasma physics', 'Say "hi"'] }),
  ).toBe('transport OR co2 OR plasma OR edge OR "plasma physics" OR "say hi"');
});

test('bounded, and nothing to search for: none', () => {
  const long = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
  expect(similarQuery({ repo_id: '1', title: long })!.split(' OR ')).toHaveLength(12);
  expect(similarQuery({ repo_id: '1', title: 'The 2020 of' })).toBeUndefined();
  expect(similarQuery({ repo_id: '1' })).toBeUndefined();
});

test('a title of a megabyte makes a query of a few hundred characters at most', () => {
  const unbroken = 'x'.repeat(1024 * 1024);
  expect(similarQuery({ repo_id: '1', title: unbroken })).toBeUndefined();
  const words = Array.from({ length: 100_000 }, (_, index) => `plasma${index}${'y'.repeat(60)}`).join(' ');
  const query = similarQuery({ repo_id: '1', title: `${unbroken} ${words} edge`, subjects: [unbroken, 'Plasma physics'] })!;
  expect(query.length).toBeLessThan(1200);
  expect(query).toContain('"plasma physics"');
});
