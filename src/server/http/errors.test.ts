import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { apiErrorSchema, type ApiError } from '../../formats/error';
import { getJson, rawRequest, useFailingFixture, useFixture, type RawResponse } from './server-fixture.test-support';

/**
 * Errors: always the spec's Error object in the negotiated format (JSON object, XML
 * <error>, three plain-text lines for BibTeX), with statusCode equal to the HTTP status.
 * Also private-mirror mode (401) and internal failures (500 without internals).
 */

const fx = useFixture();
const byDeployment = deployments.map((deployment) => [deployment.key, deployment] as const);
const lit = deployments[0]!;
const xmlParser = new XMLParser({ ignoreDeclaration: true, parseTagValue: false });

const formats = [
  ['JSON', 'application/json'],
  ['XML', 'application/xml'],
  ['BibTeX', 'application/x-bibtex'],
] as const;

/** Reads the Error object from a response in any of the three formats, checking its shape. */
function errorOf(response: RawResponse, accept: string): ApiError {
  const text = response.body.toString('utf8');
  const type = String(response.headers['content-type']);
  if (accept === 'application/xml') {
    expect(type).toMatch(/^(application|text)\/xml; charset=utf-8$/);
    const parsed = xmlParser.parse(text) as { error?: Record<string, string> };
    expect(Object.keys(parsed), 'root element').toEqual(['error']);
    expect(Object.keys(parsed.error!).sort()).toEqual(['errorDescription', 'statusCode', 'statusMessage']);
    return apiErrorSchema.parse({ ...parsed.error, statusCode: Number(parsed.error!.statusCode) });
  }
  if (accept === 'application/x-bibtex') {
    expect(type).toBe('text/plain; charset=utf-8');
    const lines = text.replace(/\n$/, '').split('\n');
    expect(lines, text).toHaveLength(3);
    expect(lines[0]).toMatch(/^\d{3}$/);
    return { statusCode: Number(lines[0]), statusMessage: lines[1]!, errorDescription: lines[2]! };
  }
  expect(type).toBe('application/json; charset=utf-8');
  return apiErrorSchema.parse(JSON.parse(text));
}

describe.each(byDeployment)('%s: an unknown record id', (_key, deployment) => {
  it.each(formats)('is 404 Not Found in %s, saying no record matches the identifier', async (_format, accept) => {
    const response = await rawRequest(`${fx.list(deployment)}/9999999`, { headers: { Accept: accept } });
    expect(response.status).toBe(404);
    const error = errorOf(response, accept);
    expect(error.statusCode).toBe(404);
    expect(error.statusMessage).toBe('Not Found');
    expect(error.errorDescription.toLowerCase()).toContain('no record matches');
    expect(error.errorDescription).toContain('9999999');
  });

  it('names an identifier with markup and spaces intact in every format', async () => {
    for (const [, accept] of formats) {
      const response = await rawRequest(`${fx.list(deployment)}/${encodeURIComponent('<b> & "x"')}`, { headers: { Accept: accept } });
      expect(response.status).toBe(404);
      expect(errorOf(response, accept).errorDescription).toContain('<b> & "x"');
    }
  });

  it('a known id is 200 with that one record', async () => {
    const { status, body, total } = await getJson<{ repo_id: string }[]>(`${fx.list(deployment)}/1030`);
    expect(status).toBe(200);
    expect(body.map((record) => record.repo_id)).toEqual(['1030']);
    expect(total).toBe(1);
  });
});

describe('unknown paths', () => {
  it.each([
    '/api/',
    '/api/nope',
    '/api/lit/v2/records',
    '/api/lit/v1/things',
    '/api/lit/v1/records/1001/extra',
    '/api/dc/v0.2/records',
    '/nothing-here',
  ])('%s is 404 with an Error body', async (path) => {
    for (const [, accept] of formats) {
      const response = await rawRequest(`${fx.url}${path}`, { headers: { Accept: accept } });
      expect(response.status, path).toBe(404);
      const error = errorOf(response, accept);
      expect(error.statusCode).toBe(404);
      expect(error.statusMessage).toBe('Not Found');
    }
  });
});

describe('methods other than GET, HEAD and OPTIONS', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s is 405 with Allow: GET, HEAD, OPTIONS and an Error body', async (method) => {
    for (const path of [lit.basePath + '/records', lit.basePath + '/records/1001', '/api/nope']) {
      for (const [, accept] of formats) {
        const response = await rawRequest(`${fx.url}${path}`, { method, headers: { Accept: accept } });
        expect(response.status, `${method} ${path}`).toBe(405);
        const allow = String(response.headers.allow)
          .split(',')
          .map((token) => token.trim())
          .sort();
        expect(allow).toEqual(['GET', 'HEAD', 'OPTIONS']);
        const error = errorOf(response, accept);
        expect(error.statusCode).toBe(405);
        expect(error.statusMessage).toBe('Method Not Allowed');
      }
    }
  });

  it('a 405 for a write never changes the data', async () => {
    await rawRequest(`${fx.list(lit)}/1001`, { method: 'DELETE' });
    expect((await getJson(`${fx.list(lit)}/1001`)).status).toBe(200);
  });
});

describe('malformed requests', () => {
  it.each(['q=%zz', 'q=%E0%A4%A', 'q=%C3', 'q=abc%', '%zz=1', 'title=%ED%A0%80', 'q=%FF%FE'])(
    'malformed percent-encoding (%s) is 400',
    async (query) => {
      for (const deployment of deployments) {
        const { status, body } = await getJson<unknown>(fx.list(deployment, query));
        expect(status, query).toBe(400);
        expect(apiErrorSchema.parse(body).statusCode).toBe(400);
      }
    },
  );

  it('malformed percent-encoding in a record id is 400', async () => {
    const { status, body } = await getJson<unknown>(`${fx.list(lit)}/%zz`);
    expect(status).toBe(400);
    expect(apiErrorSchema.parse(body).statusCode).toBe(400);
  });

  it.each(['q=wind', 'rows=1', 'repo_id=1001', 'format=json', 'q='])(
    'the single-record endpoint with query parameters (%s) is 400',
    async (query) => {
      for (const deployment of deployments) {
        const { status, body } = await getJson<unknown>(`${fx.list(deployment)}/1001?${query}`);
        expect(status, query).toBe(400);
        expect(apiErrorSchema.parse(body).statusCode).toBe(400);
      }
    },
  );
});

describe('error responses carry the common headers', () => {
  it.each([
    ['400', `${deployments[0]!.basePath}/records?rows=0`, 'GET'],
    ['404', `${deployments[0]!.basePath}/records/none-such`, 'GET'],
    ['404 (path)', '/api/unknown', 'GET'],
    ['405', `${deployments[0]!.basePath}/records`, 'POST'],
  ])('%s: Date, Content-Type with charset, exact Content-Length, Vary: Accept, CORS, not cached', async (_label, path, method) => {
    for (const [, accept] of formats) {
      const response = await rawRequest(`${fx.url}${path}`, { method, headers: { Accept: accept } });
      expect(String(response.headers.date)).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      expect(String(response.headers['content-type'])).toMatch(/; charset=utf-8$/);
      expect(Number(response.headers['content-length'])).toBe(response.body.length);
      expect(
        String(response.headers.vary)
          .split(',')
          .map((token) => token.trim()),
      ).toContain('Accept');
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers.etag).toBeUndefined();
    }
  });
});

describe('statusCode equals the HTTP status', () => {
  const cases = [
    `${lit.basePath}/records?rows=0`,
    `${lit.basePath}/records?nope=1`,
    `${lit.basePath}/records?q=%zz`,
    `${lit.basePath}/records/none-such`,
    '/api/unknown',
    `${lit.basePath}/records?q=${'x'.repeat(9000)}`,
  ];
  it.each(formats)('in %s, for every error', async (_format, accept) => {
    for (const path of cases) {
      const response = await rawRequest(`${fx.url}${path}`, { headers: { Accept: accept } });
      expect(response.status, path.slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(errorOf(response, accept).statusCode, path.slice(0, 80)).toBe(response.status);
    }
  });

  it('without token mode no request is ever 401, whatever Authorization it carries', async () => {
    for (const authorization of ['Bearer whatever', 'Basic Zm9vOmJhcg==', '']) {
      const response = await rawRequest(fx.list(lit, 'rows=1'), { headers: authorization ? { Authorization: authorization } : {} });
      expect(response.status).toBe(200);
    }
  });
});

describe('private mirror mode (started with a token)', () => {
  const secured = useFixture({ token: 'secret' });
  const vouched = useFixture({ publicUrl: 'https://records.example.org' });

  it.each(byDeployment)('%s: no Authorization header is 401 with an Error body', async (_key, deployment) => {
    for (const [, accept] of formats) {
      for (const url of [secured.list(deployment), `${secured.list(deployment)}/1001`]) {
        const response = await rawRequest(url, { headers: { Accept: accept } });
        expect(response.status).toBe(401);
        const error = errorOf(response, accept);
        expect(error.statusCode).toBe(401);
        expect(error.statusMessage).toBe('Unauthorized');
      }
    }
  });

  it('a wrong token or scheme is 401', async () => {
    for (const authorization of ['Bearer wrong', 'Bearer secret2', 'Bearer ', 'Basic secret', 'secret', 'Bearer sec']) {
      const response = await rawRequest(secured.list(lit), { headers: { Authorization: authorization } });
      expect(response.status, authorization).toBe(401);
    }
  });

  it('the right Bearer token is 200', async () => {
    const { status, body } = await getJson<unknown[]>(secured.list(lit, 'rows=2'), { Authorization: 'Bearer secret' });
    expect(status).toBe(200);
    expect(body).toHaveLength(2);
    expect((await getJson(`${secured.list(lit)}/1001`, { Authorization: 'Bearer secret' })).status).toBe(200);
  });

  it('answers are private to the client: Cache-Control private and Vary on Authorization', async () => {
    const auth = { headers: { Authorization: 'Bearer secret' } };
    for (const url of [secured.list(lit, 'rows=2'), `${secured.list(lit)}/1001`, `${secured.url}/files/fulltext/lit/1011.txt`]) {
      const response = await rawRequest(url, auth);
      expect(response.status, url).toBe(200);
      expect(response.headers['cache-control'], url).toMatch(/^private\b/);
      expect(
        String(response.headers.vary)
          .split(',')
          .map((name) => name.trim()),
        url,
      ).toContain('Authorization');
    }
    // A server without a token whose origin is vouched for (--public-url) stays publicly cacheable.
    const open = await rawRequest(vouched.list(lit, 'rows=2'));
    expect(open.headers['cache-control']).toMatch(/^public\b/);
    expect(String(open.headers.vary)).not.toContain('Authorization');
  });

  it('full texts are private too', async () => {
    const url = `${secured.url}/files/fulltext/lit/1011.txt`;
    expect((await rawRequest(url)).status).toBe(401);
    expect((await rawRequest(url, { headers: { Authorization: 'Bearer secret' } })).status).toBe(200);
  });

  it('a CORS preflight is answered without the token (browsers never send it)', async () => {
    const response = await rawRequest(secured.list(lit), {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect(response.status).toBe(204);
    expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
  });
});

describe('internal failures', () => {
  const leak = 'SQLITE_ERROR: no such column: secret_column in "SELECT doc FROM lit_records" at /var/lib/records/private.db';
  const failing = useFailingFixture(leak);

  it.each(formats)('a 500 in %s has a generic description and no stack, SQL or path', async (_format, accept) => {
    for (const url of [failing.list(lit, 'q=wind'), `${failing.list(lit)}/1001`, `${failing.url}/files/fulltext/lit/1011.txt`]) {
      const response = await rawRequest(url, { headers: { Accept: accept } });
      expect(response.status).toBe(500);
      const error = errorOf(response, accept);
      expect(error.statusCode).toBe(500);
      expect(error.statusMessage).toBe('Internal Error');
      const text = response.body.toString('utf8');
      for (const secret of ['SQLITE', 'secret_column', 'SELECT', '/var/lib', 'private.db', '    at ', 'Error:', '.ts:']) {
        expect(text, secret).not.toContain(secret);
      }
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });
});
