import { describe, expect, test } from 'vitest';
import { integerParam, queryString, recordUrl, searchUrl } from './urls';

describe('searchUrl', () => {
  test('keeps order, drops empty values, encodes spaces as %20', () => {
    expect(
      searchUrl('http://x.test/api/lit/v1', [
        ['q', 'solar cell'],
        ['author', ''],
        ['rows', '10'],
      ]),
    ).toBe('http://x.test/api/lit/v1/records?q=solar%20cell&rows=10');
  });

  test('no criteria: no question mark; trailing slash on the base is ignored', () => {
    expect(searchUrl('http://x.test/api/dc/v0.1/', [])).toBe('http://x.test/api/dc/v0.1/records');
  });

  test('quotes, ampersands and non-ASCII survive', () => {
    const url = searchUrl('http://x.test/b', [['q', '"fusion & fission" Ångström']]);
    expect(new URL(url).searchParams.get('q')).toBe('"fusion & fission" Ångström');
  });
});

test('recordUrl escapes the identifier', () => {
  expect(recordUrl('http://x.test/api/lit/v1', 'a/b c')).toBe('http://x.test/api/lit/v1/records/a%2Fb%20c');
});

test('queryString of nothing is empty', () => {
  expect(queryString([['q', '  ']])).toBe('');
});

describe('integerParam', () => {
  test('reads positive integers only', () => {
    expect(integerParam('http://x.test/r?page=13&rows=20', 'page')).toBe(13);
    expect(integerParam('http://x.test/r?page=0', 'page')).toBeUndefined();
    expect(integerParam('http://x.test/r?page=two', 'page')).toBeUndefined();
    expect(integerParam('http://x.test/r', 'page')).toBeUndefined();
    expect(integerParam('not a url', 'page')).toBeUndefined();
  });
});
