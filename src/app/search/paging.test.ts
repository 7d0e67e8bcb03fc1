import { describe, expect, test } from 'vitest';
import { appEntriesForLink, pagingOf, searchIdentity } from './paging';
import { entriesOf } from './query-params';

const api = 'http://api.test/api/lit/v1/records';

describe('pagingOf', () => {
  test('"page N of M" from the request URL and rel=last', () => {
    const paging = pagingOf({
      url: `${api}?q=x&page=3&rows=20`,
      links: {
        first: `${api}?q=x&page=1&rows=20`,
        prev: `${api}?q=x&page=2&rows=20`,
        next: `${api}?q=x&page=4&rows=20`,
        last: `${api}?q=x&page=13&rows=20`,
        alternate: 'http://elsewhere.test/',
      },
    });
    expect(paging.current).toBe(3);
    expect(paging.last).toBe(13);
    expect(Object.keys(paging.links)).toEqual(['first', 'prev', 'next', 'last']);
  });

  test('the first request has no page parameter: page 1', () => {
    expect(pagingOf({ url: `${api}?q=x`, links: { next: `${api}?q=x&page=2&rows=20`, last: `${api}?q=x&page=2&rows=20` } })).toMatchObject({
      current: 1,
      last: 2,
    });
  });

  test('no Link header: page 1 of 1', () => {
    expect(pagingOf({ url: `${api}?q=x&page=1`, links: {} })).toEqual({ current: 1, last: 1, links: {} });
  });
});

describe('appEntriesForLink', () => {
  test('page and rows come from the link; other criteria stay as they are, in order', () => {
    expect(appEntriesForLink(entriesOf('?q=x&rows=10&author=Curie'), `${api}?author=Curie&q=x&page=2&rows=10`)).toEqual([
      ['q', 'x'],
      ['rows', '10'],
      ['author', 'Curie'],
      ['page', '2'],
    ]);
  });

  test('a link without rows leaves rows out of the app URL', () => {
    expect(appEntriesForLink(entriesOf('?q=x&page=2'), `${api}?q=x&page=1`)).toEqual([
      ['q', 'x'],
      ['page', '1'],
    ]);
  });
});

test('searchIdentity ignores page and rows only', () => {
  expect(searchIdentity(entriesOf('?q=x&page=2&rows=10'))).toBe(searchIdentity(entriesOf('?q=x')));
  expect(searchIdentity(entriesOf('?q=x'))).not.toBe(searchIdentity(entriesOf('?q=y')));
});
