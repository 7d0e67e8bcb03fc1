import { describe, expect, test } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { fieldTerms } from './highlight-terms';

const lit = deploymentByKey('LIT')!;

/** The words marked in each field, as plain lists. */
function wordsByField(entries: readonly (readonly [string, string])[]): Record<string, string[]> {
  return Object.fromEntries([...fieldTerms(lit, entries)].map(([field, terms]) => [field, terms.flatMap((term) => term.terms)]));
}

describe('highlight terms per field', () => {
  test('each advanced criterion marks the fields it searches, q marks them all', () => {
    const words = wordsByField([
      ['q', 'plasma'],
      ['author', 'Smith'],
      ['title', 'fusion'],
      ['subject', 'tokamak'],
      ['research_org', 'Princeton'],
      ['rows', '20'],
    ]);
    expect(words['authors']).toEqual(['plasma', 'smith']);
    expect(words['title']).toEqual(['plasma', 'fusion']);
    expect(words['subjects']).toEqual(['plasma', 'tokamak']);
    expect(words['research_orgs']).toEqual(['plasma', 'princeton']);
    expect(words['description']).toEqual(['plasma']);
    expect(words['journal_name']).toEqual(['plasma']);
  });

  test('biblio marks the bibliographic fields, not the full text only', () => {
    const words = wordsByField([['biblio', 'Smith']]);
    for (const field of ['title', 'authors', 'journal_name', 'sponsor_orgs']) expect(words[field]).toEqual(['smith']);
  });

  test('a negated word is not marked, and a search without text criteria marks nothing', () => {
    expect(wordsByField([['author', 'Smith -Jones']])['authors']).toEqual(['smith']);
    expect(fieldTerms(lit, [['rows', '20']]).size).toBe(0);
  });
});
