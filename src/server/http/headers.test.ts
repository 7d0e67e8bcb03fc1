import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { fixtureIds, getJson, rawRequest, useFixture, type Rec } from './server-fixture.test-support';

/**
 * What every client of every deployment sees on a list request: a JSON array of records
 * shaped like the deployment's field table, and the headers docs/design.md promises (counts,
 * caching, CORS, preflight, HEAD, compression).
 */

const fx = useFixture();

const rfc1123 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const tokens = (header: string | null | undefined) => (header ?? '').split(',').map((token) => token.trim().toLowerCase());
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

describe.each(deployments.map((deployment) => [deployment.key, deployment] as const))('%s list responses', (_key, deployment) => {
  it('GET {base}/records answers 200 with a JSON array of records', async () => {
    const { status, body, response } = await getJson<Rec[]>(fx.list(deployment));
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(body.length).toBeGreaterThan(0);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('every record has exactly the deployment’s fields', async () => {
    const { body } = await getJson<Rec[]>(fx.list(deployment, 'rows=1000'));
    expect(body).toHaveLength(fixtureIds.length);
    const expected = deployment.fields.map((field) => field.name).sort();
    for (const record of body) expect(Object.keys(record).sort()).toEqual(expected);
  });

  it('X-Total-Count is the exact number of matches on every list response, 0 included', async () => {
    const all = fixtureIds.length;
    const cases: [query: string, total: number, returned: number][] = [
      ['', all, 20],
      ['rows=5', all, 5],
      ['rows=5&page=1000', all, 0],
      ['title=wind', 3, 3],
      ['title=nosuchwordanywhere', 0, 0],
      ['repo_id=1001', 1, 1],
    ];
    for (const [query, total, returned] of cases) {
      const { status, total: count, body } = await getJson<Rec[]>(fx.list(deployment, query));
      expect(status, query).toBe(200);
      expect(count, query).toBe(total);
      expect(body, query).toHaveLength(returned);
    }
  });

  it('sends Content-Type with charset, an RFC 1123 Date, an exact Content-Length and Vary: Accept', async () => {
    // node:http sends no Accept-Encoding, so Content-Length is the length of the body itself.
    const response = await rawRequest(fx.list(deployment, 'rows=3'));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(header(response.headers.date)).toMatch(rfc1123);
    expect(Math.abs(Date.parse(header(response.headers.date)!) - Date.now())).toBeLessThan(24 * 3600 * 1000);
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(tokens(header(response.headers.vary))).toContain('accept');
    expect(JSON.parse(response.body.toString('utf8'))).toHaveLength(3);
  });

  it('sends ETag and Cache-Control, and answers a matching If-None-Match with 304 and no body', async () => {
    const url = fx.list(deployment, 'rows=4');
    const first = await fetch(url);
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(first.headers.get('cache-control')).toBeTruthy();
    const again = await rawRequest(url, { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // Another tag, or another representation of the same list, is not "not modified".
    const stale = await rawRequest(url, { headers: { 'If-None-Match': 'W/"something-else"' } });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBeGreaterThan(0);
    const xml = await rawRequest(url, { headers: { Accept: 'application/xml', 'If-None-Match': etag! } });
    expect(xml.status).toBe(200);
    expect(xml.headers.etag).not.toBe(etag);
    // A different page is a different resource.
    const other = await rawRequest(fx.list(deployment, 'rows=4&page=2'), { headers: { 'If-None-Match': etag! } });
    expect(other.status).toBe(200);
  });

  it('allows any origin and exposes Link and X-Total-Count to browsers', async () => {
    for (const url of [fx.list(deployment, 'rows=2'), `${fx.list(deployment)}/1001`, `${fx.list(deployment)}/no-such-record`]) {
      const response = await fetch(url, { headers: { Origin: 'https://example.org' } });
      await response.arrayBuffer();
      expect(response.headers.get('access-control-allow-origin'), url).toBe('*');
      const exposed = tokens(response.headers.get('access-control-expose-headers'));
      expect(exposed, url).toContain('link');
      expect(exposed, url).toContain('x-total-count');
    }
  });

  it('answers an OPTIONS preflight with 204 and Allow', async () => {
    const response = await rawRequest(fx.list(deployment, 'q=wind'), {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'accept' },
    });
    expect(response.status).toBe(204);
    expect(response.body.length).toBe(0);
    expect(tokens(header(response.headers.allow))).toEqual(expect.arrayContaining(['get', 'head', 'options']));
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(tokens(header(response.headers['access-control-allow-methods']))).toContain('get');
  });

  it('HEAD returns GET’s headers and no body', async () => {
    for (const [url, accept] of [
      [fx.list(deployment, 'rows=2'), 'application/json'],
      [fx.list(deployment, 'rows=2&page=2'), 'application/xml'],
      [`${fx.list(deployment)}/1001`, 'application/x-bibtex'],
    ] as const) {
      const get = await rawRequest(url, { headers: { Accept: accept } });
      const head = await rawRequest(url, { method: 'HEAD', headers: { Accept: accept } });
      expect(head.status).toBe(get.status);
      expect(head.body.length).toBe(0);
      for (const name of [
        'content-type',
        'content-length',
        'x-total-count',
        'link',
        'etag',
        'cache-control',
        'vary',
        'access-control-allow-origin',
      ]) {
        expect(head.headers[name], `${name} of ${url}`).toEqual(get.headers[name]);
      }
      expect(Number(head.headers['content-length'])).toBe(get.body.length);
    }
  });

  it.each([
    ['gzip', 'records'],
    ['br', 'records'],
    ['gzip', 'feed'],
    ['br', 'feed'],
  ] as const)('compresses with %s when asked (%s), and the decompressed body equals the plain one', async (encoding, endpoint) => {
    const url = `${fx.url}${deployment.basePath}/${endpoint}?rows=20`;
    const plain = await rawRequest(url);
    const compressed = await rawRequest(url, { headers: { 'Accept-Encoding': encoding } });
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe(encoding);
    expect(Number(compressed.headers['content-length'])).toBe(compressed.body.length);
    expect(compressed.body.length).toBeLessThan(plain.body.length);
    const decompressed = encoding === 'gzip' ? gunzipSync(compressed.body) : brotliDecompressSync(compressed.body);
    expect(decompressed.toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(tokens(header(compressed.headers.vary))).toContain('accept-encoding');
  });

  it('does not compress when the client refuses or does not ask', async () => {
    const url = fx.list(deployment, 'rows=20');
    for (const acceptEncoding of ['identity', 'gzip;q=0, br;q=0', 'compress']) {
      const response = await rawRequest(url, { headers: { 'Accept-Encoding': acceptEncoding } });
      expect(response.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(JSON.parse(response.body.toString('utf8'))).toHaveLength(20);
    }
  });
});
