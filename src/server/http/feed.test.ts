import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { apiErrorSchema } from '../../formats/error';
import { getJson, listIds, rawRequest, useFixture } from './server-fixture.test-support';

/**
 * `{base}/feed`: a search as an Atom feed, checked against RFC 4287's rules one by one
 * (section numbers in the messages), newest entries first.
 */

const fx = useFixture();
const lit = deployments[0]!;
const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const asList = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

async function feedOf(url: string) {
  const response = await rawRequest(url);
  const xml = response.body.toString('utf8');
  return { response, xml, feed: new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(xml).feed };
}

describe.each(deployments.map((deployment) => [deployment.key, deployment] as const))('%s feed', (_key, deployment) => {
  it('is well-formed Atom that follows RFC 4287, newest entries first', async () => {
    const url = `${fx.url}${deployment.basePath}/feed?rows=10`;
    const { response, xml, feed } = await feedOf(url);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(feed['@_xmlns'], '4.1.1 namespace').toBe('http://www.w3.org/2005/Atom');
    for (const element of ['id', 'title', 'updated']) expect(asList(feed[element]), `4.1.1 exactly one atom:${element}`).toHaveLength(1);
    expect(feed.updated, '3.3 date construct').toMatch(rfc3339);
    expect(() => new URL(feed.id), '4.2.6 id is an IRI').not.toThrow();
    const links = asList(feed.link) as Record<string, string>[];
    expect(links.find((link) => link['@_rel'] === 'self')?.['@_href'], '4.1.1 SHOULD contain rel=self').toBe(url);
    expect(asList(feed.author).length, '4.1.1 an author at feed level, or in every entry').toBeGreaterThan(0);
    const entries = asList(feed.entry) as Record<string, unknown>[];
    expect(entries).toHaveLength(10);
    for (const entry of entries) {
      for (const element of ['id', 'title', 'updated']) expect(asList(entry[element]), `4.1.2 entry atom:${element}`).toHaveLength(1);
      expect(entry.updated as string).toMatch(rfc3339);
      expect(
        asList(entry.link).some((link) => (link as Record<string, string>)['@_rel'] === 'alternate'),
        '4.1.2 alternate link (no content)',
      ).toBe(true);
    }
    // Newest first: the same order as the API sorted by entry date, newest first.
    const expected = await listIds(fx.list(deployment, 'rows=10&sort=entry_date&order=desc'));
    expect(entries.map((entry) => String(entry.id).split('/').pop())).toEqual(expected);
  });
});

describe('feed parameters', () => {
  it('takes the list endpoint’s criteria, validated the same way', async () => {
    const { feed } = await feedOf(`${fx.url}${lit.basePath}/feed?title=wind`);
    const ids = await listIds(fx.list(lit, 'title=wind&sort=entry_date&order=desc'));
    expect(
      asList(feed.entry).map((entry) =>
        String((entry as { id: string }).id)
          .split('/')
          .pop(),
      ),
    ).toEqual(ids);
    for (const query of ['titel=wind', 'sort=title', 'page=2', 'publication_date_start=02/30/2020']) {
      const { status, body } = await getJson(`${fx.url}${lit.basePath}/feed?${query}`);
      expect(status, query).toBe(400);
      expect(apiErrorSchema.parse(body).statusCode).toBe(400);
    }
  });

  it('is titled with the words the app’s filter chips use, not parameter names', async () => {
    const query = 'q=solar%20cell&facet.product_type=Journal%20Article&exclude.product_type=Thesis&rows=5';
    const { feed } = await feedOf(`${fx.url}${lit.basePath}/feed?${query}`);
    expect(feed.title).toBe('Research literature v1 – solar cell · Product type: Journal Article · Product type: not Thesis');
    expect(feed.title).not.toMatch(/facet\.|\bq:/);
    expect((await feedOf(`${fx.url}${lit.basePath}/feed`)).feed.title).toBe('Research literature v1');
  });

  it('escapes record text and keeps markup out of it', async () => {
    const { xml } = await feedOf(`${fx.url}${lit.basePath}/feed?rows=100`);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toMatch(/<(sub|sup|script|p)>/);
  });
});
