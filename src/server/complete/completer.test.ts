import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FacetDef } from '../../deployments/facets';
import { facetIndexOf } from '../store/facets/facet-index';
import type { QueryEngine } from '../store/engine';
import { openEngine } from '../store/sqlite/query-engine';
import { openStoreWriter } from '../store/sqlite/sqlite';
import type { StoredRecord } from '../store/types';
import { completeFacet, completionForm, typedForm } from './completer';

/**
 * Type-ahead over a real SQLite store: values start with what was typed, as the facets
 * group them (one row per person, per subject in any case and number, per organisation in
 * any punctuation), with the facet's own counts, the most records first.
 */

let n = 0;
const record = (fields: { authors?: string[]; subjects?: string[]; research_orgs?: string[] }): StoredRecord => ({
  record: { repo_id: String(9000 + ++n), title: `Record ${n}`, product_type: 'Journal Article', ...fields },
});

const records: StoredRecord[] = [
  record({ authors: ['Fredrickson, E D'], subjects: ['Tokamaks'], research_orgs: ['U.S. Department of Energy'] }),
  record({
    authors: ['Fredrickson, E. D.', 'Fredrickson, E.D.'],
    subjects: ['tokamak', 'TOKAMAK'],
    research_orgs: ['US Department of Energy'],
  }),
  record({ authors: ['Fredrickson, Eric'], subjects: ['tokamaks'] }),
  record({ authors: ['Fredrickson, E'], subjects: ['plasma physics'], research_orgs: ['Princeton Plasma Physics Laboratory'] }),
  record({ authors: ['Smith, J', 'Smithson, A'], subjects: ['Projects'] }),
  record({ authors: ['Smith, J.'], subjects: ['Projects', 'Proteins'] }),
  record({ authors: ['Smithson, A.', 'Price, A'], subjects: ['Projects', 'Proteins', 'Prototypes'] }),
  record({ authors: ['Smithson, B'], subjects: ['Projects', 'Proteins', 'Prototypes'] }),
  record({ authors: ['Smithson, C'], subjects: ['Proteins', 'Prototypes'] }),
];

let dir: string;
let engine: QueryEngine;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'records-complete-'));
  const path = join(dir, 'store.db');
  const writer = openStoreWriter(path);
  writer.put('LIT', records);
  writer.close();
  engine = openEngine(path);
});
afterAll(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const complete = (prefix: string, fields: string[], limit = 10) => engine.complete('LIT', { fields, prefix, limit });
const all = ['author', 'subject', 'research_org', 'sponsor_org'];

/** The facet's own rows, as `/facets` lists them over the whole catalog. */
function facetRows(name: string) {
  const criteria = { text: [], exact: [], dates: [], sort: 'relevance', order: 'desc', offset: 0, limit: 0 } as const;
  return engine.facets('LIT', criteria, [{ name, limit: 100, offset: 0, sort: 'count' }]).facets[0]!.values;
}

describe('type-ahead values', () => {
  it('offers one person for every spelling of the name, counted as the author facet counts the grouped person', () => {
    const person = facetRows('author').find((row) => row.value.startsWith('Fredrickson'))!;
    expect(person.count).toBe(4);
    for (const typed of ['fredr', 'Fredrickson, E.', 'fredrickson e d', 'Fredrickson, Eric', 'FREDRICKSON,']) {
      expect(complete(typed, ['author']), typed).toEqual([{ field: 'author', value: person.value, count: 4, variants: person.variants }]);
    }
    expect(complete('fredrickson, e m', ['author'])).toEqual([]);
  });

  it('ranks the most records first, and a word typed whole no longer finds longer words', () => {
    expect(complete('smith', ['author']).map(({ value, count }) => [value, count])).toEqual([
      ['Smith, J', 2],
      ['Smithson, A', 2],
      ['Smithson, B', 1],
      ['Smithson, C', 1],
    ]);
    expect(complete('Smith, ', ['author']).map(({ value }) => value)).toEqual(['Smith, J']);
    expect(complete('smith', ['author'], 2)).toHaveLength(2);
  });

  it('finds subjects and organisations from any of their words, in any case, number and punctuation', () => {
    expect(complete('tokam', ['subject'])).toEqual([expect.objectContaining({ field: 'subject', count: 3 })]);
    expect(complete('PHYSICS', ['subject']).map(({ value }) => value)).toEqual(['plasma physics']);
    const energy = facetRows('research_org').find((row) => row.value.includes('Energy'))!;
    for (const typed of ['energy', 'U.S. Dep', 'us department', 'department of en']) {
      expect(complete(typed, ['research_org']), typed).toEqual([
        { field: 'research_org', value: energy.value, count: 2, variants: energy.variants },
      ]);
    }
  });

  it('keeps the best value of each field in the search box, so a common subject does not hide a person', () => {
    expect(complete('pr', all, 3).map(({ field, value }) => [field, value])).toEqual([
      ['subject', 'Projects'],
      ['research_org', 'Princeton Plasma Physics Laboratory'],
      ['author', 'Price, A'],
    ]);
    expect(complete('pr', all, 10).map(({ value }) => value)).toEqual([
      'Projects',
      'Proteins',
      'Prototypes',
      'Princeton Plasma Physics Laboratory',
      'Price, A',
    ]);
  });

  it('answers nothing for nothing typed, punctuation alone, or a field that does not complete', () => {
    for (const typed of ['', '   ', ',.;']) expect(complete(typed, all), JSON.stringify(typed)).toEqual([]);
    expect(complete('fredr', ['language'])).toEqual([]);
  });
});

describe('the completer over many values', () => {
  // More values start with one letter than a walk of the sorted keys takes: those are then
  // looked for in count order. Both ways must give what a plain filter and sort gives.
  const words = ['alpha', 'beta', 'gamma', 'omega'];
  const values: string[] = [];
  for (let i = 0; i < 6000; i++) values.push(`${words[i % 4]}${i % 13} ${words[(i * 3) % 4]} ${i}`);
  values.sort();
  const lists = values.map((_, code) => Int32Array.from({ length: 1 + ((code * 7919) % 37) }, (_, k) => k));
  const facet: FacetDef = { name: 'subject', label: 'Subject', criterion: { kind: 'extension', param: 'subject_term' }, fold: 'term' };
  const index = facetIndexOf(new Map([['subject', { values, firstCode: 0 }]]), lists, 64);

  const plainly = (typed: string, limit: number) =>
    values
      .map((value, code) => ({ value, count: lists[code]!.length, form: completionForm(value) }))
      .filter(({ form }) => form.startsWith(typed) || form.includes(` ${typed}`))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
      .slice(0, limit)
      .map(({ value, count }) => ({ field: 'subject', value, count }));

  it.each(['a', 'alpha', 'alpha1', 'alpha12 ome', 'g', 'beta3 omega 4', '59', 'q'])('completes %j as a plain filter would', (typed) => {
    expect(completeFacet(index, facet, typedForm(typed), 10)).toEqual(plainly(typed, 10));
  });
});
