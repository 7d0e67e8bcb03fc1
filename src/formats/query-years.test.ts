import { describe, expect, it } from 'vitest';
import { yearRangeOf } from './query-years';

describe('a year among the words of the search', () => {
  it('reads a four-digit year and a range of them', () => {
    expect(yearRangeOf('2016')).toEqual({ from: 2016, to: 2016 });
    expect(yearRangeOf('2010-2015')).toEqual({ from: 2010, to: 2015 });
    expect(yearRangeOf('2010\u20132015')).toEqual({ from: 2010, to: 2015 });
  });

  it('reads other numbers, reversed ranges and words with digits as no year', () => {
    for (const word of ['201', '20160', '0999', '3000', '2015-2010', '2016a', 'x2016', '2016-', '-2016', '10:30']) {
      expect(yearRangeOf(word), word).toBeUndefined();
    }
  });
});
