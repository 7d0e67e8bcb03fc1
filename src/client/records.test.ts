import { describe, expect, test } from 'vitest';
import { deploymentByKey } from '../deployments/registry';
import { ApiRequestError, InvalidResponseError, NetworkError } from './errors';
import { followPages } from './pages';
import { fetchRecord, fetchRecordPage, fetchWorksPage, withoutGrouping } from './records';
import { parseApiError } from './responses';

const lit = deploymentByKey('LIT')!;
const base = 'http://api.test/api/lit/v1';

const record = (id: string, extra: Record<string, unknown> = {}) => ({
  repo_id: id,
  title: `Record ${id}`,
  authors: ['Curie, Marie'],
  links: [{ rel: 'citation', href: `http://app.test/lit/records/${id}` }],
  ...extra,
});

function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  return new Response(JSON.stringify(body), { status: 200, ...init, headers });
}

/** A fake fetch answering from a table of URL → response factory, recording requests. */
function fakeFetch(routes: Record<string, () => Response>) {
  const requests: { url: string; accept: string | null; authorization?: string }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    const authorization = headers.get('Authorization');
    requests.push({ url, accept: headers.get('Accept'), ...(authorization === null ? {} : { authorization }) });
    const route = routes[url];
    if (!route) throw new TypeError('Failed to fetch');
    return route();
  };
  return { fetch, requests };
}

describe('fetchRecordPage', () => {
  test('records, X-Total-Count and Link (resolved against the request URL)', async () => {
    const url = `${base}/records?q=x`;
    const { fetch, requests } = fakeFetch({
      [url]: () =>
        json([record('1'), record('2')], {
          headers: {
            'X-Total-Count': '250',
            Link: '</api/lit/v1/records?q=x&page=2&rows=20>; rel="next", <https://api.test/api/lit/v1/records?q=x&page=13&rows=20>; rel="last"',
          },
        }),
    });
    const page = await fetchRecordPage(url, { deployment: lit, fetch });
    expect(requests).toEqual([{ url, accept: 'application/json' }]);
    expect(page.total).toBe(250);
    expect(page.records.map((item) => item.repo_id)).toEqual(['1', '2']);
    expect(page.links).toEqual({
      next: 'http://api.test/api/lit/v1/records?q=x&page=2&rows=20',
      last: 'https://api.test/api/lit/v1/records?q=x&page=13&rows=20',
    });
  });

  test('numeric repo_id becomes a string; unknown fields pass through', async () => {
    const url = `${base}/records`;
    const { fetch } = fakeFetch({ [url]: () => json([{ ...record('x'), repo_id: 42, extra_field: 'kept' }]) });
    const page = await fetchRecordPage(url, { deployment: lit, fetch });
    expect(page.records[0]).toMatchObject({ repo_id: '42', extra_field: 'kept' });
    expect(page.total).toBeUndefined();
  });

  test('a record of the wrong shape names the record and the field', async () => {
    const url = `${base}/records`;
    const { fetch } = fakeFetch({ [url]: () => json([record('1'), record('2'), record('3', { authors: 'Curie, Marie' })]) });
    const error = await fetchRecordPage(url, { deployment: lit, fetch }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).problem).toMatch(/^record 3: authors: expected array/);
  });

  test('an HTML page instead of JSON, an object instead of a list, a bad count', async () => {
    const url = `${base}/records`;
    const html = fakeFetch({ [url]: () => new Response('<!doctype html><p>app', { headers: { 'Content-Type': 'text/html' } }) });
    await expect(fetchRecordPage(url, { deployment: lit, fetch: html.fetch })).rejects.toThrow(/expected JSON, received text\/html/);
    const object = fakeFetch({ [url]: () => json({ records: [] }) });
    await expect(fetchRecordPage(url, { deployment: lit, fetch: object.fetch })).rejects.toThrow(/expected a list of records/);
    const count = fakeFetch({ [url]: () => json([], { headers: { 'X-Total-Count': 'many' } }) });
    await expect(fetchRecordPage(url, { deployment: lit, fetch: count.fetch })).rejects.toThrow(/X-Total-Count/);
  });

  test('a count beyond what a number holds exactly (10^21) is unknown, never summed or printed', async () => {
    const url = `${base}/records`;
    for (const [header, total] of [
      ['1000000000000000000000', undefined],
      ['9007199254740992', undefined],
      ['9007199254740991', 9007199254740991],
    ] as const) {
      const answer = fakeFetch({ [url]: () => json([], { headers: { 'X-Total-Count': header } }) });
      expect((await fetchRecordPage(url, { deployment: lit, fetch: answer.fetch })).total).toBe(total);
    }
  });

  test('an error status carries the server Error object', async () => {
    const url = `${base}/records?rows=0`;
    const body = { statusCode: 400, statusMessage: 'Bad Request', errorDescription: 'rows must be a whole number from 1 to 1,000.' };
    const { fetch } = fakeFetch({ [url]: () => json(body, { status: 400 }) });
    const error = await fetchRecordPage(url, { deployment: lit, fetch }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 400, apiError: body, message: body.errorDescription });
  });

  test('no answer at all is a NetworkError; an abort stays an abort', async () => {
    const { fetch } = fakeFetch({});
    await expect(fetchRecordPage(`${base}/records`, { deployment: lit, fetch })).rejects.toBeInstanceOf(NetworkError);
    const controller = new AbortController();
    controller.abort();
    const aborting = async () => {
      throw new DOMException('aborted', 'AbortError');
    };
    await expect(fetchRecordPage(`${base}/records`, { deployment: lit, fetch: aborting, signal: controller.signal })).rejects.toMatchObject(
      {
        name: 'AbortError',
      },
    );
  });
});

describe('parseApiError', () => {
  test('JSON, XML and the three-line text form', () => {
    const expected = { statusCode: 404, statusMessage: 'Not Found', errorDescription: 'No record matches "a&b".' };
    expect(parseApiError(JSON.stringify(expected))).toEqual(expected);
    expect(
      parseApiError(
        '<?xml version="1.0"?><error><statusCode>404</statusCode><statusMessage>Not Found</statusMessage><errorDescription>No record matches &quot;a&amp;b&quot;.</errorDescription></error>',
      ),
    ).toEqual(expected);
    expect(parseApiError('404\nNot Found\nNo record matches "a&b".\n')).toEqual(expected);
    expect(parseApiError('<html>Bad gateway</html>')).toBeUndefined();
    expect(parseApiError('{"oops":1}')).toBeUndefined();
  });
});

describe('fetchRecord', () => {
  test('reads the one record of the list structure (or a bare object)', async () => {
    const listed = fakeFetch({ [`${base}/records/7`]: () => json([record('7')]) });
    expect((await fetchRecord(base, '7', { deployment: lit, fetch: listed.fetch })).record.title).toBe('Record 7');
    const bare = fakeFetch({ [`${base}/records/7`]: () => json(record('7')) });
    expect((await fetchRecord(base, '7', { deployment: lit, fetch: bare.fetch })).record.repo_id).toBe('7');
  });

  test('404 with the server description; an empty list is invalid', async () => {
    const missing = fakeFetch({
      [`${base}/records/nope`]: () =>
        new Response('404\nNot Found\nNo record matches the identifier nope.\n', {
          status: 404,
          headers: { 'Content-Type': 'text/plain' },
        }),
    });
    await expect(fetchRecord(base, 'nope', { deployment: lit, fetch: missing.fetch })).rejects.toMatchObject({
      status: 404,
      apiError: { errorDescription: 'No record matches the identifier nope.' },
    });
    const empty = fakeFetch({ [`${base}/records/7`]: () => json([]) });
    await expect(fetchRecord(base, '7', { deployment: lit, fetch: empty.fetch })).rejects.toBeInstanceOf(InvalidResponseError);
  });
});

describe('private mirrors', () => {
  const auth = { token: 's3cret', origin: 'http://api.test' };

  test('search pages and records carry the bearer token', async () => {
    const url = `${base}/records?q=x`;
    const { fetch, requests } = fakeFetch({ [url]: () => json([record('1')]), [`${base}/records/1`]: () => json([record('1')]) });
    await fetchRecordPage(url, { deployment: lit, fetch, auth });
    await fetchRecord(base, '1', { deployment: lit, fetch, auth });
    expect(requests).toEqual([
      { url, accept: 'application/json', authorization: 'Bearer s3cret' },
      { url: `${base}/records/1`, accept: 'application/json', authorization: 'Bearer s3cret' },
    ]);
  });

  test('a Link to another host is followed without the token', async () => {
    const first = `${base}/records?page=1`;
    const elsewhere = 'http://other.test/api/lit/v1/records?page=2';
    const { fetch, requests } = fakeFetch({
      [first]: () => json([record('1')], { headers: { Link: `<${elsewhere}>; rel="next"` } }),
      [elsewhere]: () => json([record('2')]),
    });
    const fetchPage = async (url: string) => {
      const page = await fetchRecordPage(url, { deployment: lit, fetch, auth });
      return { ...page, next: page.links.next };
    };
    for await (const _page of followPages(first, { fetchPage })) {
      // every page is fetched
    }
    expect(requests.map((request) => request.authorization)).toEqual(['Bearer s3cret', undefined]);
  });

  test('a refused token is an ApiRequestError with the server description', async () => {
    const url = `${base}/records`;
    const body = {
      statusCode: 401,
      statusMessage: 'Unauthorized',
      errorDescription: 'This mirror is private: send Authorization: Bearer <token>.',
    };
    const { fetch } = fakeFetch({ [url]: () => json(body, { status: 401 }) });
    await expect(fetchRecordPage(url, { deployment: lit, fetch, auth: { ...auth, token: 'wrong' } })).rejects.toMatchObject({
      status: 401,
      message: body.errorDescription,
    });
  });
});

describe('fetchWorksPage', () => {
  const badRequest = () =>
    json({ statusCode: 400, statusMessage: 'Bad Request', errorDescription: "Unknown parameter 'group'." }, { status: 400 });

  test('reads the works of a grouped page: X-Work-Versions in body order, X-Total-Works', async () => {
    const url = `${base}/records?q=flux&group=work`;
    const { fetch } = fakeFetch({
      [url]: () =>
        json([record('1'), record('2'), record('3')], {
          headers: { 'X-Total-Count': '3', 'X-Work-Versions': '2,1', 'X-Total-Works': '2' },
        }),
    });
    const page = await fetchWorksPage(url, { deployment: lit, fetch });
    expect(page.works).toEqual([2, 1]);
    expect(page.totalWorks).toBe(2);
  });

  test('a header that does not add up to the records, or none, leaves the page ungrouped', async () => {
    const url = `${base}/records?q=odd&group=work`;
    const { fetch } = fakeFetch({
      [url]: () => json([record('1'), record('2')], { headers: { 'X-Total-Count': '2', 'X-Work-Versions': '2,1', 'X-Total-Works': '2' } }),
      [`${base}/records?q=plain&group=work`]: () => json([record('1')], { headers: { 'X-Total-Count': '1' } }),
    });
    const odd = await fetchWorksPage(url, { deployment: lit, fetch });
    expect(odd.works).toBeUndefined();
    expect(odd.totalWorks).toBeUndefined();
    expect((await fetchWorksPage(`${base}/records?q=plain&group=work`, { deployment: lit, fetch })).works).toBeUndefined();
  });

  test('a server that refuses group is asked again without it, and from then on only without it', async () => {
    const other = 'http://spec.test/api/lit/v1';
    const { fetch, requests } = fakeFetch({
      [`${other}/records?q=a&group=work`]: badRequest,
      [`${other}/records?q=a`]: () => json([record('1')], { headers: { 'X-Total-Count': '1' } }),
      [`${other}/records?q=b`]: () => json([record('2')], { headers: { 'X-Total-Count': '1' } }),
    });
    const first = await fetchWorksPage(`${other}/records?q=a&group=work`, { deployment: lit, fetch });
    expect(first.records.map((item) => item.repo_id)).toEqual(['1']);
    expect(first.works).toBeUndefined();
    await fetchWorksPage(`${other}/records?q=b&group=work`, { deployment: lit, fetch });
    expect(requests.map((request) => request.url)).toEqual([
      `${other}/records?q=a&group=work`,
      `${other}/records?q=a`,
      `${other}/records?q=b`,
    ]);
  });

  test("a search the server refuses with or without group is that search's own error", async () => {
    const other = 'http://strict.test/api/lit/v1';
    const { fetch } = fakeFetch({
      [`${other}/records?rows=5000&group=work`]: badRequest,
      [`${other}/records?rows=5000`]: () =>
        json(
          { statusCode: 400, statusMessage: 'Bad Request', errorDescription: 'rows must be a whole number from 1 to 1,000.' },
          { status: 400 },
        ),
      [`${other}/records?q=c&group=work`]: () => json([record('3')], { headers: { 'X-Total-Count': '1', 'X-Work-Versions': '1' } }),
    });
    await expect(fetchWorksPage(`${other}/records?rows=5000&group=work`, { deployment: lit, fetch })).rejects.toThrow(/rows must be/);
    // Not taken for a server that refuses group: the next search still asks grouped.
    expect((await fetchWorksPage(`${other}/records?q=c&group=work`, { deployment: lit, fetch })).works).toEqual([1]);
  });

  test('withoutGrouping leaves every other parameter as it was', () => {
    expect(withoutGrouping(`${base}/records?q=a%20b&group=work&rows=20&page=2`)).toBe(`${base}/records?q=a%20b&rows=20&page=2`);
    expect(withoutGrouping(`${base}/records?group=work`)).toBe(`${base}/records`);
    expect(withoutGrouping(`${base}/records?q=a%20b`)).toBe(`${base}/records?q=a%20b`);
  });
});
