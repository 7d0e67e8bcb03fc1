import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { yearFacet } from '../../deployments/facets';
import { readYearInputs, withYearRange, withoutYearRange, yearBars, yearRangeOf } from './year-range';

const dc1 = deploymentByKey('DC1')!;
const enr = deploymentByKey('ENR')!;

describe('the year chart’s range', () => {
  const year = yearFacet(dc1)!;

  it('is the deployment’s publication-year facet', () => {
    expect(year.name).toBe('publication_year');
  });

  it('becomes publication_date_start/_end in the deployment’s own date format, whole years, page 1', () => {
    const entries: [string, string][] = [
      ['q', 'plasma'],
      ['page', '2'],
    ];
    expect(withYearRange(dc1, year, entries, { from: 2010, to: 2015 })).toEqual([
      ['q', 'plasma'],
      ['publication_date_start', '01/01/2010'],
      ['publication_date_end', '12/31/2015'],
    ]);
    expect(withYearRange(enr, yearFacet(enr)!, entries, { from: 2015, to: 2010 })).toEqual([
      ['q', 'plasma'],
      ['publication_date_start', '01-01-2010'],
      ['publication_date_end', '12-31-2015'],
    ]);
    expect(withYearRange(dc1, year, entries, { from: 2012 })).toEqual([
      ['q', 'plasma'],
      ['publication_date_start', '01/01/2012'],
    ]);
  });

  it('reads back from the URL, an unreadable or absent bound as open', () => {
    const range = withYearRange(dc1, year, [['q', 'plasma']], { from: 2010, to: 2015 });
    expect(yearRangeOf(dc1, year, range)).toEqual({ from: 2010, to: 2015 });
    expect(
      yearRangeOf(dc1, year, [
        ['publication_date_start', '2012-03-04'],
        ['publication_date_end', 'soon'],
      ]),
    ).toEqual({ from: 2012, to: undefined });
    expect(withoutYearRange(year, range)).toEqual([['q', 'plasma']]);
  });

  it('draws one bar per year from the first to the last, years without records at zero', () => {
    expect(
      yearBars([
        { value: '2012', count: 3 },
        { value: '2009', count: 5 },
        { value: 'n/a', count: 9 },
      ]),
    ).toEqual([
      { year: 2009, count: 5 },
      { year: 2010, count: 0 },
      { year: 2011, count: 0 },
      { year: 2012, count: 3 },
    ]);
    expect(yearBars([])).toEqual([]);
  });
});

describe('the typed From/To years', () => {
  it('are refused when reversed, saying so, rather than applied as another range', () => {
    expect(readYearInputs('2030', '2001')).toEqual({ error: 'From 2030 is after To 2001: enter the earlier year in From.' });
  });

  it('are read as a range, either bound open, or refused when not four digits', () => {
    expect(readYearInputs(' 2001 ', '2030')).toEqual({ range: { from: 2001, to: 2030 } });
    expect(readYearInputs('2010', '2010')).toEqual({ range: { from: 2010, to: 2010 } });
    expect(readYearInputs('', '2030')).toEqual({ range: { from: undefined, to: 2030 } });
    expect(readYearInputs('20', '')).toEqual({ error: 'Enter each year as four digits, such as 2010.' });
  });
});
