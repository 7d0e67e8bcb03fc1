import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { apiErrorSchema } from '../../formats/error';
import { useFixture } from './server-fixture.test-support';

/**
 * Whatever a client sends in the query string, the answer is a 200 list or a 400 Error —
 * never a 500, never a crash, never a 401 outside private mode. And no text typed into
 * a search field can fail at all: the query parser is total.
 */

const fx = useFixture();

/** Lone surrogates cannot be percent-encoded; a client would send U+FFFD. */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
const encode = (text: string) => encodeURIComponent(wellFormed(text));
const deploymentKey = fc.constantFrom(...deployments.map((deployment) => deployment.key));
const byKey = (key: string) => deployments.find((deployment) => deployment.key === key)!;

const allNames = [...new Set(deployments.flatMap((deployment) => deployment.params.map((param) => param.name)))];
/** Stay under the server's URL limit; over-long URLs are a separate, documented answer. */
const maxUrl = 7000;

const syntax = fc.constantFrom(
  '"',
  '(',
  ')',
  '*',
  '-',
  ' ',
  'AND',
  'OR',
  'NOT',
  ' OR ',
  ' NOT ',
  '-(',
  'NEAR',
  ':',
  '{',
  '}',
  '^',
  '+',
  '\\',
  "'",
  '%',
  '\u0000',
  '\u0007',
  '\t',
  '\n',
);
const words = fc.constantFrom(
  'wind',
  'turbine',
  'Müller',
  'zephyrine',
  'hydro*',
  '"wind turbine"',
  'e',
  '10.5555/alpha.1',
  '1030',
  'true',
  'asc',
  'title',
  'publication_date desc',
  '03/15/2021',
  '2021-03-15',
  '0',
  '-1',
  '1000',
  '漢字',
  '🙂',
  'ǅ',
  'ﬁ',
  '\u0301',
);
const percent = fc.oneof(
  fc.constantFrom(
    '%',
    '%%',
    '%2',
    '%zz',
    '%C3',
    '%E0%A4%A',
    '%ED%A0%80',
    '%FF',
    '%00',
    '%25',
    '%2B',
    '%20',
    '%26',
    '%3D',
    '%C3%BC',
    '%F0%9F%99%82',
  ),
  fc.tuple(fc.constantFrom(...'0123456789ABCDEFabcdefgxyz'), fc.constantFrom(...'0123456789ABCDEFabcdefgxyz')).map(([a, b]) => `%${a}${b}`),
);

/** Text built from query-language pieces and arbitrary unicode. */
const queryText = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: words },
      { weight: 3, arbitrary: syntax },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const value = fc.oneof(
  { weight: 4, arbitrary: queryText },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'x'.repeat(999),
      'x'.repeat(1001),
      'wind '.repeat(70),
      '('.repeat(200) + 'wind',
      '"'.repeat(301),
      'a*'.repeat(400),
    ),
  },
);
const name = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...allNames) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });

/** One query-string part: encoded as a careful client would, or raw with stray `%`. */
const part = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(name, value).map(([n, v]) => `${encode(n)}=${encode(v)}`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(name, fc.array(fc.oneof(percent, words, syntax), { maxLength: 6 }))
      .map(([n, pieces]) => `${encode(n)}=${pieces.join('')}`),
  },
  { weight: 1, arbitrary: fc.array(fc.oneof(percent, fc.string({ maxLength: 6 })), { maxLength: 4 }).map((pieces) => pieces.join('')) },
);

const request = fc.record({
  deployment: deploymentKey,
  query: fc.array(part, { maxLength: 5 }).map((parts) => parts.join('&')),
});

async function check(url: string) {
  const response = await fetch(url);
  const text = await response.text();
  if (response.status === 200) {
    expect(Array.isArray(JSON.parse(text)), url).toBe(true);
    expect(response.headers.get('x-total-count'), url).toMatch(/^\d+$/);
    return 200;
  }
  // 414 is the documented answer to a search whose page links would not fit a Link header (link-bound.test.ts).
  expect([400, 414], `${url}\n${text}`).toContain(response.status);
  const error = apiErrorSchema.parse(JSON.parse(text));
  expect(error.statusCode).toBe(response.status);
  expect(error.errorDescription.length).toBeGreaterThan(0);
  if (response.status === 414) expect(error.errorDescription).toMatch(/Link header/);
  return response.status;
}

describe('arbitrary query strings', () => {
  it('never give a 500: every answer is a 200 list or a 400 Error object', async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ deployment, query }) => {
        const url = fx.list(byKey(deployment), query);
        fc.pre(url.length <= maxUrl);
        await check(url);
      }),
      { numRuns: 1100 },
    );
  });

  it('random text in q, title, author and biblio is always answered 200', async () => {
    await fc.assert(
      fc.asyncProperty(
        deploymentKey,
        fc.constantFrom('q', 'title', 'author', 'biblio'),
        // At most 60 characters, so never over the 64-word limit.
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 60 }),
          fc.string({ unit: 'binary', maxLength: 60 }),
          queryText.map((text) => text.slice(0, 60)),
        ),
        async (deployment, param, text) => {
          const response = await fetch(fx.list(byKey(deployment), `${param}=${encode(text)}`));
          const body = await response.text();
          expect(response.status, `${param}=${JSON.stringify(text)}: ${body}`).toBe(200);
          expect(Array.isArray(JSON.parse(body))).toBe(true);
        },
      ),
      {
        numRuns: 1100,
        // Shapes a store once failed on: in a parameter's columns, an OR of a prefix and a word.
        examples: [
          ['LIT', 'biblio', 'hydro* OR 0'],
          ['LIT', 'title', '"wind turbine" OR turb* -e'],
        ],
      },
    );
  });
});
