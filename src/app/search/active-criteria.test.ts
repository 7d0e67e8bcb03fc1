import { describe, expect, it } from 'vitest';
import { dateParam } from '../../deployments/params';
import { deploymentByKey } from '../../deployments/registry';
import { activeCriteria, quoteWord, yearChips } from './active-criteria';

const lit = deploymentByKey('LIT')!;

describe('activeCriteria', () => {
  it('says each filter in words, one chip per date range, leaving out the main box and list settings', () => {
    const chips = activeCriteria(lit, [
      ['q', 'wind'],
      ['author', 'Smith'],
      ['publication_date_start', '01/01/2015'],
      ['publication_date_end', '12/31/2020'],
      ['has_fulltext', 'true'],
      ['product_type', 'Journal Article'],
      ['sort', 'title'],
      ['rows', '50'],
      ['page', '2'],
    ]);
    expect(chips).toEqual([
      { label: 'Author: Smith', params: ['author'] },
      { label: 'Published: 2015–2020', params: ['publication_date_start', 'publication_date_end'] },
      { label: 'Full text available: Yes', params: ['has_fulltext'] },
      { label: 'Product type: Journal Article', params: ['product_type'] },
    ]);
  });

  it('names one year, and open-ended or exact day ranges', () => {
    const label = (entries: [string, string][]) => activeCriteria(lit, entries)[0]!.label;
    expect(
      label([
        ['publication_date_start', '01/01/2015'],
        ['publication_date_end', '12/31/2015'],
      ]),
    ).toBe('Published: 2015');
    expect(label([['entry_date_start', '03/01/2015']])).toBe('Entered: from 03/01/2015');
    expect(label([['publication_date_end', '2016-04-30']])).toBe('Published: until 2016-04-30');
    expect(
      label([
        ['publication_date_start', '03/01/2015'],
        ['publication_date_end', '04/30/2016'],
      ]),
    ).toBe('Published: 03/01/2015 – 04/30/2016');
  });

  it('opens a date range’s chip with the words its row of the table gives, for a date the table adds too', () => {
    const announced = {
      ...lit,
      params: [...lit.params, dateParam('announcement_date', 'start', 'Announced', 'announcement')],
    };
    expect(activeCriteria(announced, [['announcement_date_start', '03/01/2015']])[0]!.label).toBe('Announced: from 03/01/2015');
  });

  it('gives each combined facet value its own chip, an excluded one as "Facet: not …", removable one by one', () => {
    const chips = activeCriteria(lit, [
      ['q', 'plasma'],
      ['facet.product_type', 'Journal Article'],
      ['facet.product_type', 'Dataset'],
      ['exclude.research_org', 'PPPL'],
      ['facet.has_fulltext', 'true'],
    ]);
    expect(chips).toEqual([
      { label: 'Product type: Journal Article', params: ['facet.product_type'], value: 'Journal Article' },
      { label: 'Product type: Dataset', params: ['facet.product_type'], value: 'Dataset' },
      { label: 'Research organisation: not PPPL', params: ['exclude.research_org'], value: 'PPPL' },
      { label: 'Full text available: Yes', params: ['facet.has_fulltext'], value: 'true' },
    ]);
  });
});

describe('yearChips', () => {
  const dc1 = deploymentByKey('DC1')!;

  it('says a year or range in the box is read as a year of publication or the word, and quotes it to make it a word', () => {
    expect(yearChips(dc1, [['q', 'Kneafsey 2016 "1999" -2001 2003* (2010-2015 OR x)']])).toEqual([
      {
        label: 'Published 2016, or the word 2016',
        params: ['q'],
        rewrite: { word: '2016', value: 'Kneafsey "2016" "1999" -2001 2003* (2010-2015 OR x)' },
      },
      {
        label: 'Published 2010–2015, or the word 2010-2015',
        params: ['q'],
        rewrite: { word: '2010-2015', value: 'Kneafsey 2016 "1999" -2001 2003* ("2010-2015" OR x)' },
      },
    ]);
  });

  it('names no year where there is none, nor in other parameters', () => {
    expect(
      yearChips(dc1, [
        ['q', 'pressure 20161 3000'],
        ['title', '2016'],
      ]),
    ).toEqual([]);
  });
});

describe('quoteWord', () => {
  it('quotes every bare occurrence, negated ones keeping their sign, and leaves quoted text alone', () => {
    expect(quoteWord('2016 a "b 2016" -2016 2016x', '2016')).toBe('"2016" a "b 2016" -"2016" 2016x');
  });
});
