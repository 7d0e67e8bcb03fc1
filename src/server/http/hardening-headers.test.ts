import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { rawRequest, useFailingFixture, useFixture, type RawResponse } from './server-fixture.test-support';

/**
 * Browser-facing hardening on the server side: every kind of response — API lists and
 * records in each format, revalidations, HEAD, preflights, every error status, the app's
 * HTML and assets, media (whole, ranges, unsatisfiable ranges) and full texts — tells the
 * browser not to sniff content types and how much referrer to send; and the app's HTML
 * forbids inline and eval'd script.
 */

const staticDir = mkdtempSync(join(tmpdir(), 'records-headers-static-'));
mkdirSync(join(staticDir, 'assets'));
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Records Explorer</title><div id="root"></div>');
writeFileSync(join(staticDir, 'assets', 'app-1234.js'), 'console.log("app");');
writeFileSync(join(staticDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
afterAll(() => rmSync(staticDir, { recursive: true, force: true }));

const fx = useFixture({ staticDir });
const lit = deployments[0]!;

type Case = readonly [label: string, path: string, init: { method?: string; headers?: Record<string, string> }, status: number];

function expectSecurityHeaders(response: RawResponse, label: string) {
  expect(response.headers['x-content-type-options'], label).toBe('nosniff');
  expect(response.headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
}

describe('X-Content-Type-Options: nosniff and Referrer-Policy on every response type', () => {
  const cases: Case[] = [
    ['API list, JSON', `${lit.basePath}/records?rows=2`, {}, 200],
    ['API list, XML', `${lit.basePath}/records?rows=2`, { headers: { Accept: 'application/xml' } }, 200],
    ['API list, BibTeX', `${lit.basePath}/records?rows=2`, { headers: { Accept: 'application/x-bibtex' } }, 200],
    ['API list, gzip', `${lit.basePath}/records?rows=50`, { headers: { 'Accept-Encoding': 'gzip' } }, 200],
    ['API record', `${lit.basePath}/records/1001`, {}, 200],
    ['API HEAD', `${lit.basePath}/records/1001`, { method: 'HEAD' }, 200],
    [
      'API preflight',
      `${lit.basePath}/records`,
      { method: 'OPTIONS', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' } },
      204,
    ],
    ['API 400', `${lit.basePath}/records?rows=0`, {}, 400],
    ['API 400 as BibTeX text', `${lit.basePath}/records?nope=1`, { headers: { Accept: 'application/x-bibtex' } }, 400],
    ['API 404 record', `${lit.basePath}/records/none-such`, { headers: { Accept: 'application/xml' } }, 404],
    ['API 404 path', '/api/nope', {}, 404],
    ['API 405', `${lit.basePath}/records`, { method: 'DELETE' }, 405],
    ['API 414', `${lit.basePath}/records?q=${'a'.repeat(9000)}`, {}, 414],
    ['full text', '/files/fulltext/lit/1011.txt', {}, 200],
    ['full text 404', '/files/fulltext/lit/1002.txt', {}, 404],
    ['media', '/media/sample-video.mp4', {}, 200],
    ['media range', '/media/sample-video.mp4', { headers: { Range: 'bytes=0-9' } }, 206],
    ['media unsatisfiable range', '/media/sample-video.mp4', { headers: { Range: 'bytes=999999999-' } }, 416],
    ['media HEAD', '/media/sample-video.mp4', { method: 'HEAD' }, 200],
    ['app HTML', '/', {}, 200],
    ['app route HTML', '/lit/records/1001', {}, 200],
    ['app asset', '/assets/app-1234.js', {}, 200],
    ['app image', '/favicon.svg', {}, 200],
    ['app missing asset', '/assets/missing-0000.js', {}, 404],
  ];

  it.each(cases)('%s', async (label: string, path: string, init: Case[2], status: number) => {
    const response = await rawRequest(`${fx.url}${path}`, init);
    expect(response.status, label).toBe(status);
    expectSecurityHeaders(response, label);
  });

  it('a revalidated (304) response too', async () => {
    const url = `${fx.url}${lit.basePath}/records?rows=3`;
    const first = await rawRequest(url);
    const again = await rawRequest(url, { headers: { 'If-None-Match': String(first.headers.etag) } });
    expect(again.status).toBe(304);
    expectSecurityHeaders(again, '304');
  });

  describe('private mirror mode', () => {
    const secured = useFixture({ token: 'letmein' });
    it('401 answers carry them too', async () => {
      const response = await rawRequest(secured.list(lit));
      expect(response.status).toBe(401);
      expectSecurityHeaders(response, '401');
    });
  });

  describe('internal failures', () => {
    const failing = useFailingFixture('store down');

    it('500 answers carry them too', async () => {
      const response = await rawRequest(failing.list(lit, 'q=wind'));
      expect(response.status).toBe(500);
      expectSecurityHeaders(response, '500');
    });
  });
});

describe('the app’s Content-Security-Policy', () => {
  /** Directive name → its source list. */
  function directives(header: string | string[] | undefined): Map<string, string[]> {
    expect(typeof header, 'one Content-Security-Policy header').toBe('string');
    return new Map(
      String(header)
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter((tokens) => tokens[0])
        .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
    );
  }

  it.each(['/', '/index.html', '/lit/records/1001', '/search?q=%3Cscript%3E'])(
    '%s: scripts only from the app’s own origin, never inline or eval',
    async (path) => {
      const response = await rawRequest(`${fx.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      const policy = directives(response.headers['content-security-policy']);
      // script-src, or default-src when there is none, governs scripts.
      const scripts = policy.get('script-src') ?? policy.get('default-src');
      expect(scripts, 'script-src').toBeDefined();
      for (const source of scripts!) {
        expect(source, 'script source').not.toMatch(/^'unsafe-|^\*$|^data:|^blob:|^https?:$|^'strict-dynamic'$/i);
      }
      expect(scripts).toContain("'self'");
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('base-uri')).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    },
  );

  it('only HTML carries the policy; API answers are data and do not need one', async () => {
    const api = await rawRequest(fx.list(lit, 'rows=1'));
    expect(api.headers['content-security-policy']).toBeUndefined();
    expect(api.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});
