import { describe, expect, test } from 'vitest';
import { facetsResponseSchema } from '../formats/facets-response';
import { InvalidResponseError } from './errors';
import { fetchFacetsWithAll } from './facets';

/** A combinable server's answer as docs/extensions.md describes it. */
const combinable = {
  total: 120,
  combinable: true,
  facets: [
    {
      name: 'product_type',
      label: 'Product type',
      distinct: 3,
      offset: 0,
      more: false,
      values: [
        { value: 'Journal Article', count: 80, params: { product_type: 'Journal Article' } },
        { value: 'Dataset', count: 30, params: { product_type: 'Dataset' } },
      ],
      selected: [{ value: 'Dataset', count: 30 }],
      excluded: [{ value: 'Thesis', count: 10 }],
    },
  ],
};

const spec = { total: 120, facets: [{ ...combinable.facets[0]!, selected: undefined, excluded: undefined }] };

function serve(routes: Record<string, () => Response>) {
  const requests: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    const url = String(input);
    requests.push(url);
    const route = routes[url];
    return route
      ? route()
      : new Response(JSON.stringify({ statusCode: 400, statusMessage: 'Bad Request', errorDescription: 'unknown parameter' }), {
          status: 400,
        });
  };
  return { fetch, requests };
}

const json = (body: unknown) => () => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

describe('facets of a search, every year for the chart', () => {
  test('a combinable answer keeps its selected and excluded counts and says it combines', async () => {
    const base = 'http://combines.test/api/dc/v1';
    const { fetch, requests } = serve({
      [`${base}/facets?q=plasma&facet.product_type=Dataset&facet_limit.publication_year=1000`]: json(combinable),
    });
    const response = await fetchFacetsWithAll(
      base,
      [
        ['q', 'plasma'],
        ['facet.product_type', 'Dataset'],
        ['page', '2'],
      ],
      'publication_year',
      1000,
      { fetch },
    );
    expect(requests).toHaveLength(1);
    expect(response.combinable).toBe(true);
    expect(response.facets[0]!.selected).toEqual([{ value: 'Dataset', count: 30 }]);
    expect(response.facets[0]!.excluded).toEqual([{ value: 'Thesis', count: 10 }]);
  });

  test('a server without the extension refuses facet_limit.NAME: asked again plainly, and plainly from then on', async () => {
    const base = 'http://plain.test/api/dc/v1';
    const { fetch, requests } = serve({ [`${base}/facets?q=plasma`]: json(spec), [`${base}/facets?q=wind`]: json(spec) });
    const response = await fetchFacetsWithAll(base, [['q', 'plasma']], 'publication_year', 1000, { fetch });
    expect(response.combinable).toBeUndefined();
    expect(response.facets[0]!.selected).toBeUndefined();
    expect(requests).toEqual([`${base}/facets?q=plasma&facet_limit.publication_year=1000`, `${base}/facets?q=plasma`]);
    await fetchFacetsWithAll(base, [['q', 'wind']], 'publication_year', 1000, { fetch });
    expect(requests.at(-1)).toBe(`${base}/facets?q=wind`);
    expect(requests).toHaveLength(3);
  });

  test('a 400 the plain request also gets is the error shown; a malformed count is named', async () => {
    const base = 'http://strict.test/api/dc/v1';
    const { fetch } = serve({});
    await expect(fetchFacetsWithAll(base, [['publication_date_start', 'soon']], 'publication_year', 1000, { fetch })).rejects.toThrow(
      'unknown parameter',
    );
    const broken = { ...combinable, facets: [{ ...combinable.facets[0], selected: [{ value: 'Dataset', count: -1 }] }] };
    const bad = serve({ [`${base}/facets?facet_limit.publication_year=1000`]: json(broken) });
    await expect(fetchFacetsWithAll(base, [], 'publication_year', 1000, { fetch: bad.fetch })).rejects.toBeInstanceOf(InvalidResponseError);
    expect(facetsResponseSchema.safeParse(spec).success).toBe(true);
  });
});
