import { describe, expect, it } from 'vitest';
import { facetFilters, rowState, valueState, withRowState, withValueState } from './combined-selection';

describe('combined facet selection in the URL', () => {
  const entries: [string, string][] = [
    ['q', 'plasma'],
    ['facet.product_type', 'Journal Article'],
    ['exclude.research_org', 'PPPL'],
    ['page', '3'],
  ];

  it('reads each facet’s selected and excluded values, in URL order', () => {
    const more: [string, string][] = [...entries, ['facet.product_type', 'Dataset']];
    expect(facetFilters(more, 'product_type')).toEqual({ selected: ['Journal Article', 'Dataset'], excluded: [] });
    expect(facetFilters(more, 'research_org')).toEqual({ selected: [], excluded: ['PPPL'] });
    expect(valueState(facetFilters(more, 'research_org'), 'PPPL')).toBe('exclude');
    expect(valueState(facetFilters(more, 'product_type'), 'Dataset')).toBe('select');
    expect(valueState(facetFilters(more, 'product_type'), 'Thesis')).toBe('none');
  });

  it('adds a second value of a facet beside the first (OR), back on page 1', () => {
    expect(withValueState(entries, 'product_type', 'Dataset', 'select')).toEqual([
      ['q', 'plasma'],
      ['facet.product_type', 'Journal Article'],
      ['exclude.research_org', 'PPPL'],
      ['facet.product_type', 'Dataset'],
    ]);
  });

  it('never selects and excludes the same value: excluding a ticked value unticks it, and back', () => {
    const excluded = withValueState(entries, 'product_type', 'Journal Article', 'exclude');
    expect(facetFilters(excluded, 'product_type')).toEqual({ selected: [], excluded: ['Journal Article'] });
    const ticked = withValueState(entries, 'research_org', 'PPPL', 'select');
    expect(facetFilters(ticked, 'research_org')).toEqual({ selected: ['PPPL'], excluded: [] });
  });

  it('removes only the value asked for, leaving a same-named value of another facet', () => {
    const both: [string, string][] = [
      ['facet.language', 'English'],
      ['facet.country', 'English'],
      ['facet.language', 'German'],
    ];
    expect(withValueState(both, 'language', 'English', 'none')).toEqual([
      ['facet.country', 'English'],
      ['facet.language', 'German'],
    ]);
  });

  it('reads a row of several spellings as chosen when the URL holds any of them, and replaces them all when it changes', () => {
    const spellings = ['Fredrickson, E D', 'Fredrickson, E. D.', 'Fredrickson, Eric'];
    const held: [string, string][] = [
      ['q', 'plasma'],
      ['facet.author', 'Fredrickson, Eric'],
      ['facet.author', 'Diallo, A'],
    ];
    expect(rowState(facetFilters(held, 'author'), spellings)).toBe('select');
    expect(rowState(facetFilters(held, 'author'), ['Kaye, S M'])).toBe('none');
    expect(withRowState(held, 'author', 'Fredrickson, E D', spellings, 'none')).toEqual([
      ['q', 'plasma'],
      ['facet.author', 'Diallo, A'],
    ]);
    expect(facetFilters(withRowState(held, 'author', 'Fredrickson, E D', spellings, 'exclude'), 'author')).toEqual({
      selected: ['Diallo, A'],
      excluded: ['Fredrickson, E D'],
    });
  });
});
