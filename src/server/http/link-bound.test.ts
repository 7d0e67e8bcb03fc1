import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { apiErrorSchema } from '../../formats/error';
import { parseLinkHeader } from '../../formats/link-header';
import { maxLinkHeaderLength } from './api';
import { getJson, listIds, qs, rawRequest, startFixture, useFixture } from './server-fixture.test-support';

/**
 * Bounded headers: a Link header never outgrows what clients accept, and `--allowed-hosts`
 * answers only for the names a mirror serves under.
 */

const fx = useFixture();
const lit = deployments[0]!;
/** A search for "wind" (four records) made long by words that match nothing. */
const widened = (words: number) => `wind OR ${Array.from({ length: words }, (_, i) => `nomatchword${i}`).join(' OR ')}`;

describe('the Link header', () => {
  it('repeats each parameter once, as read: padding and empty parameters are left out', async () => {
    const response = await rawRequest(fx.list(lit, qs({ q: `wind${' '.repeat(2000)}`, title: '', rows: 1 })));
    expect(response.status).toBe(200);
    const link = String(response.headers.link);
    expect(link.length).toBeLessThan(1000);
    const next = parseLinkHeader(link).next!;
    expect(new URL(next).search).toBe('?q=wind&rows=1&page=2');
    expect(await listIds(next)).toHaveLength(1);
  });

  it('stays within its bound for a long search, and every target works', async () => {
    const response = await rawRequest(fx.list(lit, qs({ q: widened(40), rows: 1 })));
    expect(response.status).toBe(200);
    const link = String(response.headers.link);
    expect(link.length).toBeGreaterThan(maxLinkHeaderLength / 4);
    expect(link.length).toBeLessThanOrEqual(maxLinkHeaderLength);
    // Node's own fetch accepts it, and the last page holds the last record.
    expect(await listIds(parseLinkHeader(link).last!)).toHaveLength(1);
  });

  it('refuses, before searching, a search whose links would be longer, with a 414 Error object', async () => {
    const query = qs({ q: widened(50), title: widened(50), author: widened(50), rows: 1 });
    const { status, body } = await getJson(fx.list(lit, query));
    expect(status).toBe(414);
    const error = apiErrorSchema.parse(body);
    expect(error.statusMessage).toBe('URI Too Long');
    expect(error.errorDescription).toContain(String(maxLinkHeaderLength));
  });
});

describe('--allowed-hosts', () => {
  it('answers for the listed names (any port unless one is given) and 421 for any other Host', async () => {
    const server = await startFixture({ allowedHosts: ['records.example.org', 'localhost:8080', '[::1]'] });
    try {
      const path = `${lit.basePath}/records?rows=1`;
      const status = async (host: string) => (await rawRequest(`${server.url}${path}`, { headers: { Host: host } })).status;
      expect(await status('records.example.org')).toBe(200);
      expect(await status('RECORDS.example.org:443')).toBe(200);
      expect(await status('localhost:8080')).toBe(200);
      expect(await status('[::1]:9000')).toBe(200);
      expect(await status('localhost:9090')).toBe(421);
      const refused = await rawRequest(`${server.url}${path}`, { headers: { Host: 'evil.example' } });
      expect(refused.status).toBe(421);
      expect(apiErrorSchema.parse(JSON.parse(refused.body.toString('utf8'))).statusMessage).toBe('Misdirected Request');
    } finally {
      await server.close();
    }
  });
});
