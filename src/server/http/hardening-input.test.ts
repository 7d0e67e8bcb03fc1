import { XMLParser } from 'fast-xml-parser';
import fc from 'fast-check';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { apiErrorSchema } from '../../formats/error';
import { negotiateFormat, type ResponseFormat } from '../../formats/media-types';
import { useFixture } from './server-fixture.test-support';

/**
 * Hostile input through an ordinary HTTP client, for every parameter of every deployment:
 * huge values, control characters, invalid UTF-8 in percent-encoding (%C3%28, %FF, the
 * overlong %C0%AF, the lone surrogate %ED%A0%80), repeated and disguised parameter names,
 * 10,000-character queries, deeply nested parentheses, odd record paths and odd Accept
 * headers. The answer is never a 500 and never a hang: a 200 in the negotiated format, or
 * the spec's Error object in the negotiated format (JSON object, XML <error> with its three
 * children, three text lines for BibTeX) with statusCode equal to the HTTP status.
 * (property.test.ts covers random query strings in JSON; this adds formats, paths and the
 * per-parameter sweep.)
 */

const fx = useFixture();
const byKey = new Map(deployments.map((deployment) => [deployment.key, deployment]));
const maxUrlLength = 8192;
const xmlParser = new XMLParser({ ignoreDeclaration: true, parseTagValue: false });

// ---------------------------------------------------------------------------------------
// One request and the checks every answer must pass

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

/**
 * GET through node:http with a bound: an answer that does not come in 10 s is a hang. The
 * target goes out byte for byte (a URL object would resolve `%2e%2e` and the like first).
 */
function ask(url: string, accept: string | undefined): Promise<Answer> {
  const { hostname, port } = new URL(fx.url);
  const path = url.slice(fx.url.length);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, headers: accept === undefined ? {} : { Accept: accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type']),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer within 10 s: ${url.slice(0, 200)}`)));
    req.on('error', reject);
    req.end();
  });
}

/** Fails unless the answer is a well-formed success or Error object in `format`. */
function expectWellFormed(answer: Answer, format: ResponseFormat, context: string): void {
  const { status, contentType, text } = answer;
  const where = `${context}\n→ ${status} ${contentType}\n${text.slice(0, 300)}`;
  expect(status, where).not.toBeGreaterThanOrEqual(500);
  if (status === 200) {
    if (format === 'json') {
      expect(contentType, where).toBe('application/json; charset=utf-8');
      expect(Array.isArray(JSON.parse(text)), where).toBe(true);
    } else if (format === 'xml') {
      expect(contentType, where).toBe('application/xml; charset=utf-8');
      expect(Object.keys(xmlParser.parse(text) as object), where).toEqual(['records']);
    } else {
      expect(contentType, where).toBe('application/x-bibtex; charset=utf-8');
      expect(text.trim() === '' || text.trimStart().startsWith('@misc{'), where).toBe(true);
    }
    return;
  }
  expect([400, 404, 414, 431], where).toContain(status);
  if (format === 'json') {
    expect(contentType, where).toBe('application/json; charset=utf-8');
    const error = apiErrorSchema.parse(JSON.parse(text));
    expect(error.statusCode, where).toBe(status);
    expect(error.errorDescription.length, where).toBeGreaterThan(0);
  } else if (format === 'xml') {
    expect(contentType, where).toBe('application/xml; charset=utf-8');
    const parsed = xmlParser.parse(text) as { error?: Record<string, string> };
    expect(Object.keys(parsed), where).toEqual(['error']);
    expect(Object.keys(parsed.error!).sort(), where).toEqual(['errorDescription', 'statusCode', 'statusMessage']);
    expect(Number(parsed.error!.statusCode), where).toBe(status);
  } else {
    expect(contentType, where).toBe('text/plain; charset=utf-8');
    const lines = text.replace(/\n$/, '').split('\n');
    expect(lines, where).toHaveLength(3);
    expect(lines[0], where).toBe(String(status));
    expect(lines[1]!.length * lines[2]!.length, where).toBeGreaterThan(0);
  }
}

// ---------------------------------------------------------------------------------------
// Building blocks of hostile requests

/** Percent sequences that are not UTF-8: truncated, overlong, surrogates, beyond U+10FFFF, bare bytes. */
const invalidUtf8 = [
  '%C3%28',
  '%FF',
  '%C0%AF',
  '%ED%A0%80',
  '%ED%BF%BF',
  '%E0%80%80',
  '%F4%90%80%80',
  '%F8%88%80%80%80',
  '%80',
  '%C3',
  '%E2%82',
  '%FE%FF',
];
/** Other raw pieces: stray percent signs, encoded NUL and line breaks, encoded separators. */
const rawPieces = [
  ...invalidUtf8,
  '%',
  '%%',
  '%G1',
  '%u0041',
  '%00',
  '%0A',
  '%0D%0A',
  '%7F',
  '%25',
  '%26',
  '%3D',
  '%2B',
  '+',
  '%C3%BC',
  '%F0%9F%99%82',
];

/** Lone surrogates cannot be percent-encoded; a client would send U+FFFD. */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
const encode = (text: string) => encodeURIComponent(wellFormed(text));

const nested = (depth: number, inner = 'wind') => `${'('.repeat(depth)}${inner}${')'.repeat(depth)}`;

const controlChar = fc
  .integer({ min: 0, max: 0x9f })
  .filter((code) => code < 0x20 || code >= 0x7f)
  .map((code) => String.fromCharCode(code));

/** Hostile values, as text a client would encode properly. */
const hostileText = fc.oneof(
  fc.constantFrom(
    'x'.repeat(1001),
    'x'.repeat(7000),
    'wind OR '.repeat(1250),
    'a'.repeat(10_000),
    nested(450),
    nested(120, 'wind NOT (solar OR "hydro power")'),
    `${'NOT ('.repeat(150)}wind`,
    `${'('.repeat(900)}`,
    `${')'.repeat(900)}`,
    '"'.repeat(999),
    'a* '.repeat(300),
    'AND OR NOT AND OR NOT',
    '-',
    '*',
    '\u202Eevil\u202C',
    '\uFEFFwind',
    'w\u200Dind',
    '\u0000',
    'wind\u0000solar',
    '\r\n',
    'ﬁ ǅ 漢字 🙂 \u0301',
    '\uD800',
    '\uDFFF\uD800',
  ),
  fc.constantFrom('0', '-1', '1e3', '99999999999999999999', '0x10', ' 1 ', '1.5', 'NaN', 'Infinity', '١٢', '１', '1000', '1001'),
  fc.constantFrom(
    '02/30/2024',
    '13/01/2020',
    '00-00-0000',
    '2024-02-29',
    '9999-12-31',
    '12/31/9999',
    '01/01/0000',
    '2024-13-01',
    '1/1/2024',
    '01/01/-2024',
    '٠١/٠١/٢٠٢٤',
    '03-15-2021',
    '03/15/2021',
  ),
  fc.constantFrom('asc', 'desc', 'ASC', 'title', 'relevance', 'publication_date desc', 'title asc desc', 'true', 'false', 'TRUE', 'yes'),
  fc.string({ unit: controlChar, maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

/** A value as it appears in the URL: encoded properly, or with raw percent pieces spliced in. */
const urlValue = fc.oneof(
  { weight: 3, arbitrary: hostileText.map(encode) },
  {
    weight: 2,
    arbitrary: fc
      .array(
        fc.oneof(
          fc.constantFrom(...rawPieces),
          hostileText.map((text) => encode(text.slice(0, 20))),
        ),
        { minLength: 1, maxLength: 5 },
      )
      .map((parts) => parts.join('')),
  },
);

/** A name: one of the deployment's own (sometimes percent-encoded letter by letter), or not. */
function urlName(deployment: Deployment) {
  const own = deployment.params.map((param) => param.name);
  const others = [...new Set(deployments.flatMap((other) => other.params.map((param) => param.name)))].filter(
    (name) => !own.includes(name),
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...own) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...own)
        .map((name) => [...name].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).join('')),
    },
    { weight: 1, arbitrary: others.length ? fc.constantFrom(...others) : fc.constant('nope') },
    { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 10 }).map(encode), fc.constantFrom(...rawPieces)) },
  );
}

/** Accept headers: the three formats, with q-values, wildcards, junk and very long ones. */
const acceptHeader = fc.oneof(
  fc.constantFrom(
    undefined,
    '',
    'application/json',
    'application/xml',
    'text/xml',
    'application/x-bibtex',
    'text/x-bibtex',
    '*/*',
    'text/*',
    'application/*',
    'text/html, application/xhtml+xml, */*;q=0.8',
    'application/xml;q=0',
    'application/xml;q=0.1, application/x-bibtex',
    'application/x-bibtex;q=0.2, application/xml;q=0.9',
    'application/json;q=0, */*',
    'APPLICATION/XML',
    'application/xml;q=nonsense',
    'application/x-bibtex;q=1.5',
    ',,;;q=,',
    'image/png',
    `${'application/xml;q=0.5, '.repeat(300)}application/x-bibtex`,
    'x'.repeat(4000),
  ),
  fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz/*;=,. q0123456789-+'.split('')), maxLength: 60 }),
);

const deploymentArb = fc.constantFrom(...deployments);
const deploymentKey = fc.constantFrom(...deployments.map((deployment) => deployment.key));

// ---------------------------------------------------------------------------------------

describe('hostile parameters, every deployment, every format', () => {
  it('random combinations of the deployment’s parameters with hostile values are never a 500 and always well-formed', async () => {
    const requestArb = deploymentArb.chain((deployment) =>
      fc.record({
        key: fc.constant(deployment.key),
        pairs: fc.array(fc.tuple(urlName(deployment), urlValue), { minLength: 1, maxLength: 4 }),
        repeat: fc.boolean(),
        accept: acceptHeader,
      }),
    );
    await fc.assert(
      fc.asyncProperty(requestArb, async ({ key, pairs, repeat, accept }) => {
        // Sometimes the first parameter is given twice: that is a 400 whatever else is wrong.
        const all = repeat ? [...pairs, pairs[0]!] : pairs;
        const url = fx.list(byKey.get(key)!, all.map(([name, value]) => `${name}=${value}`).join('&'));
        const answer = await ask(url, accept);
        const context = `${url.slice(0, 300)} Accept: ${String(accept).slice(0, 80)}`;
        const rawLength = url.length - fx.url.length;
        if (answer.status === 431) {
          // Request line and headers beyond Node's 16 KiB: refused before Accept is read.
          expect(rawLength + (accept?.length ?? 0), context).toBeGreaterThan(12_000);
          expectWellFormed(answer, 'json', context);
          return;
        }
        if (rawLength > maxUrlLength && /\btext\/html\b/i.test(accept ?? '')) {
          // A link too long, followed in a browser (it asks for HTML): a page a person can act on (server.ts).
          expect([answer.status, answer.contentType], context).toEqual([414, 'text/html; charset=utf-8']);
          return;
        }
        expectWellFormed(answer, negotiateFormat(accept), context);
        if (rawLength > maxUrlLength) expect(answer.status, context).toBe(414);
        // Shorter, a 414 is only the Link bound: a search too long to link its pages.
        else if (answer.status === 414) expect(answer.text, context).toMatch(/too long to link its pages/);
      }),
      { numRuns: 700 },
    );
  });

  it.each(deployments.map((deployment) => [deployment.key, deployment] as const))(
    '%s: invalid UTF-8 in any parameter is a 400 Error object in the negotiated format',
    async (_key, deployment) => {
      const formats = [undefined, 'application/xml', 'application/x-bibtex'] as const;
      let i = 0;
      for (const param of deployment.params) {
        for (const piece of ['%C3%28', '%FF', '%C0%AF', '%ED%A0%80']) {
          const accept = formats[i++ % formats.length];
          const url = fx.list(deployment, `${param.name}=a${piece}b`);
          const answer = await ask(url, accept);
          expect(answer.status, url).toBe(400);
          expectWellFormed(answer, negotiateFormat(accept), url);
        }
      }
    },
  );

  it.each(deployments.map((deployment) => [deployment.key, deployment] as const))(
    '%s: every parameter given twice, even disguised by percent-encoding its name, is a 400 naming it',
    async (_key, deployment) => {
      for (const param of deployment.params) {
        const disguised = [...param.name].map((char) => `%${char.charCodeAt(0).toString(16)}`).join('');
        for (const query of [`${param.name}=1&${param.name}=2`, `${param.name}=1&${disguised}=2`, `${param.name}=&${param.name}=`]) {
          const answer = await ask(fx.list(deployment, query), 'application/xml');
          expect(answer.status, query).toBe(400);
          expectWellFormed(answer, 'xml', query);
          expect(answer.text, query).toContain(param.name);
        }
      }
    },
  );

  it('a 10,000-character query is a 414 Error object in each format; at the URL limit a long value is a 400', async () => {
    const lit = byKey.get('LIT')!;
    for (const accept of [undefined, 'application/xml', 'application/x-bibtex']) {
      for (const value of ['a'.repeat(10_000), encode('wind OR '.repeat(1250))]) {
        const answer = await ask(fx.list(lit, `q=${value}`), accept);
        expect(answer.status).toBe(414);
        expectWellFormed(answer, negotiateFormat(accept), 'q=<10,000 characters>');
      }
      const long = await ask(fx.list(lit, `q=${'a'.repeat(8000)}`), accept);
      expect(long.status).toBe(400);
      expectWellFormed(long, negotiateFormat(accept), 'q=<8,000 characters>');
    }
  });

  it('deeply nested parentheses are answered: a 200 within the length limit, a 400 beyond it', async () => {
    const lit = byKey.get('LIT')!;
    for (const [query, status] of [
      [nested(450), 200],
      [nested(490, 'wind OR solar'), 200],
      [`${'('.repeat(999)}`, 200],
      [`${'(wind OR '.repeat(60)}solar`, 200],
      [nested(600), 400],
    ] as const) {
      const answer = await ask(fx.list(lit, `q=${encode(query)}`), undefined);
      expect(answer.status, query.slice(0, 40)).toBe(status);
      expectWellFormed(answer, 'json', query.slice(0, 40));
    }
    // What the nesting contains is still found.
    const found = JSON.parse((await ask(fx.list(lit, `title=${encode(nested(300, 'geothermal'))}`), undefined)).text) as {
      repo_id: string;
    }[];
    expect(found.map((record) => record.repo_id)).toEqual(['1005']);
  });
});

describe('hostile record paths', () => {
  const segment = fc.array(
    fc.oneof(
      fc.constantFrom(
        ...rawPieces,
        '..',
        '.',
        '%2e%2e',
        '%2E',
        '%2F',
        '%5C',
        '~',
        ';',
        ',',
        "'",
        '(',
        ')',
        '!',
        '$',
        '@',
        ':',
        '1001',
        '1030',
        'none-such',
      ),
      fc.string({ unit: 'grapheme', maxLength: 8 }).map(encode),
      fc.string({ unit: controlChar, maxLength: 3 }).map(encode),
    ),
    { minLength: 1, maxLength: 6 },
  );

  it('a record id of any shape is a 200, a 400 or a 404 Error object, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(deploymentKey, segment, acceptHeader, async (key, parts, accept) => {
        const url = `${fx.list(byKey.get(key)!)}/${parts.join('')}`;
        const answer = await ask(url, accept);
        expectWellFormed(answer, negotiateFormat(accept), `${url} Accept: ${String(accept).slice(0, 60)}`);
        expect([200, 400, 404], url).toContain(answer.status);
      }),
      { numRuns: 400 },
    );
  });

  it('arbitrary paths under /api and /files are a 400 or 404 Error object, never a 500', async () => {
    const prefix = fc.constantFrom(
      '/api/',
      '/api/lit/',
      '/api/lit/v1/',
      '/api/dc/v0.1/records/',
      '/files/fulltext/',
      '/files/fulltext/lit/',
      '/files/',
    );
    await fc.assert(
      fc.asyncProperty(
        prefix,
        segment,
        fc.constantFrom('', '.txt', '/', '/records', '?q=wind'),
        acceptHeader,
        async (start, parts, end, accept) => {
          const url = `${fx.url}${start}${parts.join('')}${end}`;
          const answer = await ask(url, accept);
          // A path that happens to name a stored full text is served as plain text.
          if (answer.status === 200 && answer.contentType === 'text/plain; charset=utf-8' && start.startsWith('/files/')) return;
          expectWellFormed(answer, negotiateFormat(accept), `${url} Accept: ${String(accept).slice(0, 60)}`);
        },
      ),
      { numRuns: 300 },
    );
  });
});
