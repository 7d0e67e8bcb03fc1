import { describe, expect, it } from 'vitest';
import { recordsAndWorks, workRows } from './works';

const records = ['a', 'b', 'c', 'd'].map((repo_id) => ({ repo_id }));

describe('workRows', () => {
  it('reads each work as its leading record and its other versions, in body order', () => {
    expect(workRows({ records, works: [2, 1, 1] }).map(({ record, versions }) => [record.repo_id, versions.map((v) => v.repo_id)])).toEqual(
      [
        ['a', ['b']],
        ['c', []],
        ['d', []],
      ],
    );
  });

  it('makes every record a row where the page is not grouped', () => {
    expect(workRows({ records }).map(({ versions }) => versions.length)).toEqual([0, 0, 0, 0]);
  });
});

describe('recordsAndWorks', () => {
  it('says records and works where both are counted, and how the list reads otherwise', () => {
    expect(recordsAndWorks(1234, { works: [2, 1], totalWorks: 1200 })).toBe('1,234 records · 1,200 works');
    expect(recordsAndWorks(1, { works: [1], totalWorks: 1 })).toBe('1 record · 1 work');
    expect(recordsAndWorks(5000, { works: [2, 1] })).toBe('5,000 records, versions grouped');
    expect(recordsAndWorks(5000, {})).toBeUndefined();
  });
});
