import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { apiErrorSchema } from '../../formats/error';
import { fixtureIds, getJson, qs, useFixture, type Rec } from './server-fixture.test-support';

/**
 * Paging as a client experiences it: page sizes, out-of-range pages, and the Link header,
 * which the app follows instead of computing page URLs. Walking a result set by Link
 * alone must visit every record exactly once.
 */

const fx = useFixture();
const byDeployment = deployments.map((deployment) => [deployment.key, deployment] as const);
const lit = deployments[0]!;

/** RFC 8288 as the server writes it: `<url>; rel="name"` separated by commas. */
function parseLinks(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  if (!header) return links;
  for (const part of header.split(/,\s*(?=<)/)) {
    const match = /^<([^<>\s]+)>;\s*rel="([a-z]+)"$/.exec(part.trim());
    if (!match) throw new Error(`malformed Link part: ${part}`);
    expect(links[match[2]!], `duplicate rel ${match[2]}`).toBeUndefined();
    links[match[2]!] = match[1]!;
  }
  return links;
}

async function page(url: string) {
  const result = await getJson<Rec[]>(url);
  expect(result.status, url).toBe(200);
  return { ...result, links: parseLinks(result.response.headers.get('link')) };
}

const pageOf = (url: string) => new URL(url).searchParams.get('page');

describe('page size', () => {
  it.each(byDeployment)('%s: rows defaults to 20 and page to 1', async (_key, deployment) => {
    const first = await page(fx.list(deployment));
    expect(first.body).toHaveLength(20);
    expect(first.total).toBe(fixtureIds.length);
    const explicit = await page(fx.list(deployment, 'rows=20&page=1'));
    expect(explicit.body.map((record) => record.repo_id)).toEqual(first.body.map((record) => record.repo_id));
  });

  it('rows may be 1000 but not 1001', async () => {
    const max = await page(fx.list(lit, 'rows=1000'));
    expect(max.body).toHaveLength(fixtureIds.length);
    const over = await getJson<unknown>(fx.list(lit, 'rows=1001'));
    expect(over.status).toBe(400);
    const error = apiErrorSchema.parse(over.body);
    expect(error.statusCode).toBe(400);
    expect(error.errorDescription).toContain('rows');
    expect(error.errorDescription).toMatch(/1,?000/);
  });

  it('page=0 is page 1, as the upstream answers it; negative and non-integer pages stay 400', async () => {
    const zero = await page(fx.list(lit, 'rows=5&page=0'));
    const one = await page(fx.list(lit, 'rows=5&page=1'));
    expect(zero.status).toBe(200);
    expect(JSON.stringify(zero.body)).toBe(JSON.stringify(one.body));
    expect(zero.links).toEqual(one.links);
    expect((await getJson(fx.list(lit, 'rows=0'))).status).toBe(400);
  });

  it('a naive client that takes the page number after "page=" in rel="next" walks every page', async () => {
    const seen: string[] = [];
    let url: string | undefined = fx.list(lit, 'q=wind OR solar OR hydro* OR turbine&rows=2');
    for (let guard = 0; url && guard < 50; guard++) {
      const { body, links, status } = await page(url);
      expect(status).toBe(200);
      seen.push(...(body as { repo_id: string }[]).map((record) => record.repo_id));
      // As upstream scripts do: everything after "page=" is the next page number.
      const next = links.next?.split('page=')[1];
      url =
        next === undefined ? undefined : fx.list(lit, `q=${encodeURIComponent('wind OR solar OR hydro* OR turbine')}&rows=2&page=${next}`);
      if (next !== undefined) expect(next).toMatch(/^\d+$/);
    }
    const all = await page(fx.list(lit, 'q=wind OR solar OR hydro* OR turbine&rows=100'));
    expect(seen).toEqual((all.body as { repo_id: string }[]).map((record) => record.repo_id));
    expect(seen.length).toBeGreaterThan(4);
  });

  it('Link targets keep the caller’s parameters in order, then rows, then page last', async () => {
    const { links } = await page(fx.list(lit, 'page=2&q=wind&rows=1&sort=title'));
    for (const href of Object.values(links)) expect(new URL(href).search).toMatch(/^\?q=wind&sort=title&rows=1&page=\d+$/);
  });

  it.each(['-1', '1.5', 'abc', '1e3', '0x10', '2 3'])('rows=%s and page=%s are 400', async (value) => {
    for (const name of ['rows', 'page']) {
      const { status, body } = await getJson<unknown>(fx.list(lit, qs({ [name]: value })));
      expect(status, `${name}=${value}`).toBe(400);
      const error = apiErrorSchema.parse(body);
      expect(error.statusCode).toBe(400);
      expect(error.errorDescription).toContain(name);
    }
  });

  it('an empty rows or page counts as absent', async () => {
    const result = await page(fx.list(lit, 'rows=&page='));
    expect(result.body).toHaveLength(20);
  });

  it.each(byDeployment)('%s: a page past the end is 200 with an empty list and the total', async (_key, deployment) => {
    const result = await page(fx.list(deployment, 'rows=10&page=6'));
    expect(result.body).toEqual([]);
    expect(result.total).toBe(fixtureIds.length);
    expect(result.links.next).toBeUndefined();
    expect(result.links.first).toBeDefined();
    expect(result.links.last).toBeDefined();
    expect(pageOf(result.links.last!)).toBe('5');
  });
});

describe('Link header', () => {
  it('is present only when more records match than one page holds', async () => {
    const cases: [query: string, hasLink: boolean][] = [
      [`rows=${fixtureIds.length}`, false],
      [`rows=${fixtureIds.length - 1}`, true],
      ['rows=1000', false],
      ['title=wind', false],
      ['title=wind&rows=3', false],
      ['title=wind&rows=2', true],
      ['title=nosuchword', false],
    ];
    for (const [query, hasLink] of cases) {
      const response = await fetch(fx.list(lit, query));
      await response.arrayBuffer();
      expect(response.headers.has('link'), query).toBe(hasLink);
    }
  });

  it.each(byDeployment)('%s: first and last always, prev except on page 1, next except on the last page', async (_key, deployment) => {
    const rows = 10;
    const last = Math.ceil(fixtureIds.length / rows);
    for (let n = 1; n <= last; n++) {
      const { links } = await page(fx.list(deployment, `rows=${rows}&page=${n}`));
      const rels = Object.keys(links).sort();
      const expected = ['first', 'last', ...(n > 1 ? ['prev'] : []), ...(n < last ? ['next'] : [])].sort();
      expect(rels, `page ${n}`).toEqual(expected);
      expect(pageOf(links.first!)).toBe('1');
      expect(pageOf(links.last!)).toBe(String(last));
      if (links.prev) expect(pageOf(links.prev)).toBe(String(n - 1));
      if (links.next) expect(pageOf(links.next)).toBe(String(n + 1));
      for (const url of Object.values(links)) expect(new URL(url).searchParams.get('rows')).toBe(String(rows));
    }
  });

  it.each(byDeployment)('%s: targets are absolute and keep the caller’s other parameters in order', async (_key, deployment) => {
    const caller: [string, string][] = [
      ['sort', 'title'],
      ['title', '"tied record" OR probe & co'],
      ['rows', '2'],
      ['order', 'asc'],
      ['page', '2'],
    ];
    const { links } = await page(fx.list(deployment, caller.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')));
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev']);
    for (const target of Object.values(links)) {
      expect(target.startsWith(`${fx.url}${deployment.basePath}/records?`), target).toBe(true);
      const params = [...new URL(target).searchParams];
      const others = params.filter(([name]) => name !== 'page' && name !== 'rows');
      expect(others).toEqual(caller.filter(([name]) => name !== 'page' && name !== 'rows'));
      expect(params.filter(([name]) => name === 'rows')).toEqual([['rows', '2']]);
      expect(params.filter(([name]) => name === 'page')).toHaveLength(1);
    }
  });
});

/** Follows one rel from a URL until it runs out; returns each page's ids. */
async function walk(start: string, rel: 'next' | 'prev') {
  const pages: string[][] = [];
  const visited: string[] = [];
  let url: string | undefined = start;
  let total: number | undefined;
  while (url) {
    expect(visited, 'a Link cycle').not.toContain(url);
    visited.push(url);
    const result = await page(url);
    total ??= result.total;
    expect(result.total, 'the total is the same on every page').toBe(total);
    pages.push(result.body.map((record) => record.repo_id));
    url = result.links[rel];
    expect(pages.length).toBeLessThanOrEqual(fixtureIds.length + 1);
  }
  return { pages, visited, total: total ?? 0 };
}

describe('walking a result set by Link alone', () => {
  const walks = [
    ['default order', ''],
    ['by title', 'sort=title'],
    ['by relevance with equal scores', 'q=probe'],
    ['by entry date (many equal)', 'sort=entry_date&order=asc'],
  ] as const;

  describe.each(byDeployment)('%s', (_key, deployment) => {
    it.each(walks)('%s: first → next → … → last visits every match once; prev walks back', async (_label, query) => {
      const rows = 7;
      const start = fx.list(deployment, [query, `rows=${rows}`].filter(Boolean).join('&'));
      const all = await page(fx.list(deployment, [query, 'rows=1000'].filter(Boolean).join('&')));
      const forward = await walk(start, 'next');
      const ids = forward.pages.flat();
      expect(ids).toHaveLength(forward.total);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual(all.body.map((record) => record.repo_id).sort());
      expect(ids).toEqual(all.body.map((record) => record.repo_id));
      expect(forward.pages.length).toBe(Math.max(1, Math.ceil(forward.total / rows)));
      const { links } = await page(start);
      if (forward.pages.length > 1) expect(forward.visited.at(-1)).toBe(links.last);

      const backward = await walk(forward.visited.at(-1)!, 'prev');
      expect(backward.pages.reverse()).toEqual(forward.pages);
    });
  });

  it('q=probe matches nine records, so the relevance walk crosses pages', async () => {
    const { total } = await page(fx.list(lit, 'q=probe'));
    expect(total).toBe(9);
  });
});
