import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { rawRequest, useFixture } from './server-fixture.test-support';

/**
 * A request's Host reaches absolute URLs (Link targets, record links, OpenSearch templates)
 * only in answers kept from shared caches, unless --public-url or --allowed-hosts vouches
 * for the origin: a cache in front of the server can then never hand one client's Host to
 * another.
 */

const lit = deploymentByKey('LIT')!;
const plain = useFixture();
const published = useFixture({ publicUrl: 'https://records.example.org' });
const allowed = useFixture({ allowedHosts: ['records.example.org'] });

const hostile = { Host: 'attacker.example' };
const urls = [`${lit.basePath}/records?rows=2`, `${lit.basePath}/records/1030`, `${lit.basePath}/feed`, '/lit/opensearch.xml'];

describe('the origin of absolute URLs', () => {
  it('without --public-url or --allowed-hosts, answers built from the Host are private to the client', async () => {
    for (const path of urls) {
      const response = await rawRequest(`${plain.url}${path}`, { headers: hostile });
      expect(response.status, path).toBe(200);
      expect(String(response.headers['cache-control']), path).toMatch(/^private\b/);
    }
    // The spec's Link targets stay absolute, on the origin the client named.
    const list = await rawRequest(`${plain.url}${urls[0]}`, { headers: hostile });
    expect(String(list.headers.link)).toContain('<http://attacker.example/api/');
  });

  it('with --public-url, the Host reaches nothing and answers may be shared', async () => {
    for (const path of urls) {
      const response = await rawRequest(`${published.url}${path}`, { headers: hostile });
      expect(response.body.toString('utf8'), path).not.toContain('attacker.example');
      expect(String(response.headers.link ?? ''), path).not.toContain('attacker.example');
      expect(String(response.headers['cache-control']), path).toMatch(/^public\b/);
    }
  });

  it('with --allowed-hosts, only a listed Host is answered, and its answers may be shared', async () => {
    expect((await rawRequest(`${allowed.url}${urls[0]}`, { headers: hostile })).status).toBe(421);
    for (const path of urls) {
      const response = await rawRequest(`${allowed.url}${path}`, { headers: { Host: 'records.example.org' } });
      expect(response.status, path).toBe(200);
      expect(String(response.headers['cache-control']), path).toMatch(/^public\b/);
    }
  });
});
