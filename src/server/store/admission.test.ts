import { describe, expect, it } from 'vitest';
import { parseQuery } from '../query/parse';
import { admissionOf, CostBook } from './admission';
import type { Criteria, SelectedValue } from './types';

const criteria = (extra: Partial<Criteria>): Criteria => ({
  text: [],
  exact: [],
  dates: [],
  sort: 'relevance',
  order: 'desc',
  offset: 0,
  limit: 20,
  ...extra,
});
const phrase = [{ columns: ['title' as const], query: parseQuery('"solar wind turbine"')! }];

describe('which requests are record lookups', () => {
  it('is only what GET /records/{id} needs: the record, its full text, its own keys, a short page by id', () => {
    expect(admissionOf('get', ['LIT', '1']).lookup).toBe(true);
    expect(admissionOf('fulltext', ['LIT', '1']).lookup).toBe(true);
    expect(
      admissionOf('rankPage', ['LIT', criteria({ repoIds: ['1'], exact: [{ key: 'language', value: 'english' }], limit: 0 }), 0, 0, 0])
        .lookup,
    ).toBe(true);
    expect(admissionOf('fetch', ['LIT', new Int32Array(20)]).lookup).toBe(true);
  });

  it('is never a search that names a repo_id beside words or dates, facets, or a page of 1,000 records', () => {
    expect(admissionOf('rankPage', ['LIT', criteria({ repoIds: ['1'], text: phrase }), 20, 0, 20]).lookup).toBe(false);
    expect(
      admissionOf('rankPage', ['LIT', criteria({ repoIds: ['1'], dates: [{ field: 'publication_date', from: '2000-01-01' }] }), 20, 0, 20])
        .lookup,
    ).toBe(false);
    expect(admissionOf('facets', ['LIT', criteria({ repoIds: ['1'] }), []]).lookup).toBe(false);
    expect(admissionOf('fetch', ['LIT', new Int32Array(1000)]).lookup).toBe(false);
  });

  it('gives requests of one shape one kind, whatever their words', () => {
    const kind = (query: string) =>
      admissionOf('rankPage', ['LIT', criteria({ text: [{ columns: ['title'], query: parseQuery(query)! }] }), 20, 0, 20]).kind;
    expect(kind('solar')).toBe(kind('wind'));
    expect(kind('"solar wind"')).not.toBe(kind('solar'));
    expect(admissionOf('facets', ['LIT', criteria({}), [{ name: 'a', limit: 10, offset: 0, sort: 'count' }]]).kind).not.toBe(kind('solar'));
  });

  it('tells a search choosing many facet values from the plain search beside them', () => {
    const words = [{ columns: ['title' as const], query: parseQuery('solar')! }];
    const values = (n: number): SelectedValue[] =>
      Array.from({ length: n }, (_, i) => ({
        value: `v${i}`,
        selector: { text: [], exact: [], dates: [{ field: 'publication_date', from: `${1950 + i}-01-01` }] },
      }));
    const kind = (selections: Criteria['selections']) =>
      admissionOf('rankPage', ['LIT', criteria({ text: words, selections }), 20, 0, 20]).kind;
    expect(kind([{ facet: 'subject', anyOf: [], noneOf: values(50) }])).not.toBe(kind(undefined));
    expect(kind([{ facet: 'subject', anyOf: values(50), noneOf: [] }])).not.toBe(
      kind([{ facet: 'subject', anyOf: [], noneOf: values(50) }]),
    );
    expect(kind([{ facet: 'subject', anyOf: values(2), noneOf: [] }])).toBe(kind([{ facet: 'subject', anyOf: values(2), noneOf: [] }]));
  });
});

describe('the price of a kind', () => {
  const search = admissionOf('rankPage', ['LIT', criteria({ text: phrase }), 20, 0, 20]);

  it('follows what its requests took: dear once two runs say so, cheap again as soon as one runs fast', () => {
    const costs = new CostBook();
    expect(costs.isDear(search)).toBe(false);
    costs.charge(search.kind, 900);
    // One slow run of a kind estimated cheap (a cold cache) proves nothing yet.
    expect(costs.isDear(search)).toBe(false);
    costs.charge(search.kind, 900);
    expect(costs.isDear(search)).toBe(true);
    costs.charge(search.kind, 3);
    expect(costs.priceOf(search)).toBe(3);
    expect(costs.isDear(search)).toBe(false);
  });

  it('keeps an ordinary search cheap through slow runs in a busy moment, dear only while every recent run is slow', () => {
    const costs = new CostBook();
    costs.charge(search.kind, 5);
    costs.charge(search.kind, 150);
    costs.charge(search.kind, 150);
    expect(costs.priceOf(search)).toBe(5);
    expect(costs.isDear(search)).toBe(false);
    costs.charge(search.kind, 150);
    expect(costs.isDear(search)).toBe(true);
  });

  it('holds a page of many records dear however fast its kind ran: a rare word’s feed is a few entries, a common word’s a thousand', () => {
    const costs = new CostBook();
    const rendering = { format: 'xml' as const, origin: '', bibtexPrefix: 'records' };
    const feed = admissionOf('rankRender', [
      'LIT',
      criteria({ text: phrase, sort: 'publication_date', limit: 1000 }),
      2000,
      0,
      1000,
      rendering,
    ]);
    const pageOfIds = admissionOf('render', ['LIT', new Int32Array(1000), rendering]);
    const personsPage = admissionOf('rankRender', ['LIT', criteria({ text: phrase }), 40, 0, 20, rendering]);
    for (const each of [feed, pageOfIds, personsPage]) for (let run = 0; run < 3; run++) costs.charge(each.kind, 3);
    expect(costs.isDear(feed)).toBe(true);
    expect(costs.isDear(pageOfIds)).toBe(true);
    expect(costs.isDear(personsPage)).toBe(false);
  });

  it('holds back a kind estimated dear from its first run on', () => {
    const costs = new CostBook();
    const facets = admissionOf('facets', [
      'LIT',
      criteria({}),
      Array.from({ length: 8 }, (_, i) => ({ name: `f${i}`, limit: 10, offset: 0, sort: 'count' as const })),
    ]);
    expect(costs.isDear(facets)).toBe(true);
    costs.charge(facets.kind, 400);
    expect(costs.isDear(facets)).toBe(true);
  });
});
