import { describe, expect, it } from 'vitest';
import { parseQuery } from '../query/parse';
import { admissionOf } from './admission';
import type { Criteria } from './types';

const criteria = (extra: Partial<Criteria>): Criteria => ({ text: [], exact: [], dates: [], sort: 'relevance', order: 'desc', offset: 0, limit: 20, ...extra });
const phrase = [{ columns: ['title' as const], query: parseQuery('"solar wind turbine"')! }];

describe('which requests are record lookups', () => {
  it('is only what GET /records/{id} needs: the record, its full text, its own keys, a short page by id', () => {
    expect(admissionOf('get', ['LIT', '1']).lookup).toBe(true);
    expect(admissionOf('fulltext', ['LIT', '1']).lookup).toBe(true);
    expect(admissionOf('rankPage', ['LIT', criteria({ repoIds: ['1'], exact: [{ key: 'origin', value: 'generated' }], limit: 0 }), 0, 0, 0]).lookup).toBe(true);
    expect(admissionOf('fetch', ['LIT', new Int32Array(20)]).lookup).toBe(true);
  });

  it('is never a search that names a repo_id beside words or dates, facets, or a page of 1,000 records', () => {
    expect(admissionOf('rankPage', ['LIT', criteria({ repoIds: ['1'], text: phrase }), 20, 0, 20]).lookup).toBe(false);
    expect(admissionOf('rankPage', ['LIT', criteria({ repoIds: ['1'], dates: [{ field: 'publication_date', from: '2000-01-01' }] }), 20, 0, 20]).lookup).toBe(false);
    expect(admissionOf('facets', ['LIT', criteria({ repoIds: ['1'] }), []]).lookup).toBe(false);
    expect(admissionOf('fetch', ['LIT', new Int32Array(1000)]).lookup).toBe(false);
  });

  it('gives requests of one shape one kind, whatever their words', () => {
    const kind = (query: string) => admissionOf('rankPage', ['LIT', criteria({ text: [{ columns: ['title'], query: parseQuery(query)! }] }), 20, 0, 20]).kind;
    expect(kind('solar')).toBe(kind('wind'));
    expect(kind('"solar wind"')).not.toBe(kind('solar'));
    expect(admissionOf('facets', ['LIT', criteria({}), [{ name: 'a', limit: 10, offset: 0, sort: 'count' }]]).kind).not.toBe(kind('solar'));
  });
});
