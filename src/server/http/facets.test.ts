import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { apiErrorSchema } from '../../formats/error';
import { facetsResponseSchema, type FacetsResponse } from '../../formats/facets-response';
import { getJson, listIds, qs, rawRequest, sorted, useFixture } from './server-fixture.test-support';

/**
 * `{base}/facets`: for every facet value returned, its count is the X-Total-Count of the
 * same search with that value's parameters added — the invariant the app's filter column
 * relies on — on every deployment and store.
 */

const fx = useFixture();
const lit = deployments[0]!;

async function facetsOf(url: string): Promise<FacetsResponse> {
  const { status, body, response } = await getJson(url);
  expect(status, url).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return facetsResponseSchema.parse(body);
}

const facetsUrl = (deployment: (typeof deployments)[number], query: string) =>
  `${fx.url}${deployment.basePath}/facets${query ? `?${query}` : ''}`;

describe.each(deployments.map((deployment) => [deployment.key, deployment] as const))('%s facets', (_key, deployment) => {
  for (const search of ['', 'q=wind OR solar OR turbine OR hydro*', 'language=english']) {
    it(`counts every value exactly as the search does (${search || 'everything'})`, async () => {
      const body = await facetsOf(facetsUrl(deployment, `${search}&facet_limit=100`));
      const { total } = await getJson(fx.list(deployment, search));
      expect(body.total).toBe(total);
      expect(body.facets.map((facet) => facet.name)).toEqual(deployment.facets.map((facet) => facet.name));
      let checked = 0;
      for (const facet of body.facets) {
        expect(facet.values.length, facet.name).toBe(facet.distinct);
        for (const { value, count, params } of facet.values) {
          // A value of a facet the search already filters by replaces that filter, as in the app.
          const query = new URLSearchParams(search);
          for (const [name, selected] of Object.entries(params)) query.set(name, selected);
          const url = fx.list(deployment, query.toString());
          const { status, total: selected } = await getJson(url);
          expect(status, url).toBe(200);
          expect(count, `${facet.name}=${value}`).toBe(selected);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }
});

describe('facet parameters', () => {
  it('pages values: facet_limit, facet_offset and more, in count or A–Z order', async () => {
    const [all] = (await facetsOf(facetsUrl(lit, 'facet=publication_year&facet_limit=100'))).facets;
    expect(all!.distinct).toBeGreaterThan(4);
    const counts = all!.values.map((value) => value.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const [first] = (await facetsOf(facetsUrl(lit, 'facet=publication_year&facet_limit=2'))).facets;
    const [second] = (await facetsOf(facetsUrl(lit, 'facet=publication_year&facet_limit=2&facet_offset=2'))).facets;
    expect(first!.more).toBe(true);
    expect([...first!.values, ...second!.values]).toEqual(all!.values.slice(0, 4));
    expect(second!.offset).toBe(2);
    const [last] = (await facetsOf(facetsUrl(lit, `facet=publication_year&facet_limit=100&facet_offset=${all!.distinct - 1}`))).facets;
    expect(last!.values).toHaveLength(1);
    expect(last!.more).toBe(false);
    const [byValue] = (await facetsOf(facetsUrl(lit, 'facet=publication_year&facet_limit=100&facet_sort=value'))).facets;
    expect(byValue!.values.map((value) => value.value)).toEqual(all!.values.map((value) => value.value).sort());
  });

  it('answers only the facets asked for, in the order asked', async () => {
    const body = await facetsOf(facetsUrl(lit, 'facet=language&facet=product_type'));
    expect(body.facets.map((facet) => facet.name)).toEqual(['language', 'product_type']);
  });

  it('filters records by product_type, an extension parameter, in any case', async () => {
    for (const deployment of deployments) {
      const type = deployment.productTypes[0]!;
      const all = await listIds(fx.list(deployment, 'rows=1000'));
      expect(sorted(await listIds(fx.list(deployment, qs({ product_type: type.toUpperCase(), rows: 1000 }))))).toEqual(sorted(all));
      expect(await listIds(fx.list(deployment, qs({ product_type: 'No such type' })))).toEqual([]);
    }
  });

  it('refuses what it cannot count, with the Error object in JSON and XML', async () => {
    const bad = [
      'facet=colour',
      'facet_limit=0',
      'facet_limit=101',
      'facet_limit=abc',
      'facet_offset=-1',
      'facet_sort=size',
      'sort=title',
      'page=2',
      'rows=5',
      'titel=wind',
      'publication_date_start=02/30/2020',
      'facet_limit=5&facet_limit=6',
    ];
    for (const query of bad) {
      const { status, body } = await getJson(facetsUrl(lit, query));
      expect(status, query).toBe(400);
      expect(apiErrorSchema.parse(body).statusCode).toBe(400);
      const xml = await rawRequest(facetsUrl(lit, query), { headers: { Accept: 'application/xml' } });
      expect(xml.status).toBe(400);
      expect(xml.body.toString('utf8')).toContain('<statusCode>400</statusCode>');
    }
  });
});
