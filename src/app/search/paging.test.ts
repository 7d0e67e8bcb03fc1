import { describe, expect, test } from 'vitest';
import { appEntriesForLink, pageNumbers, pageUrl, pagingOf, searchIdentity } from './paging';
import { entriesOf } from '../navigation/query-params';

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
    expect(pagingOf({ url: `${api}?q=x&page=1`, links: {} })).toEqual({
      current: 1,
      last: 1,
      links: {},
      atStart: true,
      atEnd: true,
      pastLast: false,
    });
  });

  test('page 1 offers no way back, the last page no way on; pages between offer both', () => {
    const link = (n: number) => `${api}?q=x&page=${n}&rows=20`;
    const first = pagingOf({ url: `${api}?q=x`, links: { first: link(1), next: link(2), last: link(4) } });
    expect(first).toMatchObject({ atStart: true, atEnd: false });
    const middle = pagingOf({ url: link(2), links: { first: link(1), prev: link(1), next: link(3), last: link(4) } });
    expect(middle).toMatchObject({ atStart: false, atEnd: false });
    const last = pagingOf({ url: link(4), links: { first: link(1), prev: link(3), last: link(4) } });
    expect(last).toMatchObject({ atStart: false, atEnd: true });
    // A server that also links "prev" and "next" to the current page still shows page 1 and
    // the last page as the ends.
    expect(pagingOf({ url: link(1), links: { first: link(1), prev: link(1), next: link(2), last: link(4) } }).atStart).toBe(true);
    expect(pagingOf({ url: link(4), links: { first: link(1), prev: link(3), next: link(4), last: link(4) } }).atEnd).toBe(true);
  });

  test('past the last page there is still a way back, and to the last page', () => {
    const link = (n: number) => `${api}?q=x&page=${n}&rows=20`;
    // What the local server sends for page 20 of 4: first, prev (= last) and last.
    expect(pagingOf({ url: link(20), links: { first: link(1), prev: link(4), last: link(4) } })).toMatchObject({
      current: 20,
      last: 4,
      pastLast: true,
      atStart: false,
      atEnd: false,
    });
  });

  test('a server paging by other parameters: the Link header alone decides', () => {
    const link = (offset: number) => `${api}?q=x&offset=${offset}`;
    expect(pagingOf({ url: link(20), links: { first: link(0), prev: link(0), next: link(40) } })).toMatchObject({
      atStart: false,
      atEnd: false,
    });
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

describe('pageUrl', () => {
  const link = (n: number) => `${api}?q=x&page=${n}&rows=20`;
  const paging = pagingOf({ url: link(3), links: { first: link(1), prev: link(2), next: link(4), last: `${api}?rows=20&page=36&q=x` } });

  test('the server’s own URL with only page changed', () => {
    expect(pageUrl(paging, 7)).toBe(`${api}?rows=20&page=7&q=x`);
    expect(pageUrl(paging, 36)).toBe(`${api}?rows=20&page=36&q=x`);
  });

  test('never outside 1…last', () => {
    expect(pageUrl(paging, 37)).toBeUndefined();
    expect(pageUrl(paging, 0)).toBeUndefined();
    expect(pageUrl(paging, 2.5)).toBeUndefined();
  });

  test('none where the links do not page by page number', () => {
    const offsets = pagingOf({ url: `${api}?q=x&offset=20`, links: { next: `${api}?q=x&offset=40` } });
    expect(pageUrl(offsets, 2)).toBeUndefined();
  });
});

describe('pageNumbers', () => {
  test('first, last and two either side of the current page', () => {
    expect(pageNumbers(10, 36)).toEqual([1, 'gap', 8, 9, 10, 11, 12, 'gap', 36]);
    expect(pageNumbers(1, 36)).toEqual([1, 2, 3, 'gap', 36]);
    expect(pageNumbers(36, 36)).toEqual([1, 'gap', 34, 35, 36]);
  });

  test('a gap of one number shows the number', () => {
    expect(pageNumbers(4, 10)).toEqual([1, 2, 3, 4, 5, 6, 'gap', 10]);
  });

  test('few pages: all of them; past the last page: the last pages', () => {
    expect(pageNumbers(2, 3)).toEqual([1, 2, 3]);
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(999, 36)).toEqual([1, 'gap', 36]);
  });
});
