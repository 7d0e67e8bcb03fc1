import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { routeOf, routes } from './routes';
import { rawRequest, specById, useFixture, type RawResponse } from './server-fixture.test-support';

/**
 * The one access rule, walked route by route: on a private mirror, every route of the
 * table (routes.ts) that reads records answers nothing about a record without the token,
 * and works with it. The walk takes the table itself, so a route added to it is covered.
 */

const token = 'access-walk-token';
const staticDir = mkdtempSync(join(tmpdir(), 'records-access-app-'));
const indexHtml = '<!doctype html><html><head><title>Records Explorer</title></head><body><div id="root"></div></body></html>';
writeFileSync(join(staticDir, 'index.html'), indexHtml);
writeFileSync(join(staticDir, 'config.json'), '{"deployments":{}}');
mkdirSync(join(staticDir, 'assets'));
writeFileSync(join(staticDir, 'assets', 'app-1234.js'), 'console.log("app");');
afterAll(() => rmSync(staticDir, { recursive: true, force: true }));

const fx = useFixture({ token, staticDir });
const withToken = { Authorization: `Bearer ${token}` };
const mediaFiles = readdirSync(fileURLToPath(new URL('../../../public/media/', import.meta.url)));

/** Two records whose words the fixture uses nowhere else: one with a DOI and media, one with a full text. */
const sampleIds = ['1030', '1011'] as const;
const recordData = [
  specById('1030').title,
  '10.5555/alpha.1',
  specById('1011').title,
  specById('1011').fulltext!,
  // Facet values of the two records (country, language) show up in /facets.
  'Germany',
  'citation_',
];

const accepts = ['application/json', 'application/xml', 'application/x-bibtex', 'text/html', '*/*'];

/** What the walk asks of every route: each example, and every path of the app a browser or tool could name. */
function pathsOf(route: (typeof routes)[number]): string[] {
  const paths = new Set<string>();
  for (const deployment of deployments) for (const id of sampleIds) for (const path of route.examples({ deployment, id })) paths.add(path);
  return [...paths];
}

const leaks = (response: RawResponse) => recordData.filter((text) => response.body.toString('utf8').includes(text));

describe('a private mirror says nothing about a record without its token', () => {
  it('every route reads records unless it says otherwise, and its examples are its own', () => {
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const paths = pathsOf(route);
      expect(paths.length, route.name).toBeGreaterThan(0);
      for (const path of paths) expect(routeOf(path.split('?')[0]!).name, path).toBe(route.name);
    }
    // The catch-all app route is public; everything else that is public is listed here by name.
    expect(
      routes
        .filter((route) => route.access === 'public')
        .map((route) => route.name)
        .sort(),
    ).toEqual(['app', 'opensearch']);
  });

  it.each(routes.map((route) => [route.name, route] as const))('%s: nothing about a record without the token', async (_name, route) => {
    for (const path of pathsOf(route)) {
      for (const method of ['GET', 'HEAD']) {
        for (const accept of accepts) {
          const response = await rawRequest(`${fx.url}${path}`, { method, headers: { Accept: accept } });
          const what = `${method} ${path} (${accept})`;
          expect(leaks(response), what).toEqual([]);
          if (route.access === 'public') expect(response.status, what).toBeLessThan(500);
          else if (route.withoutToken === 'app-shell') {
            expect(response.status, what).toBe(200);
            if (method === 'GET') expect(response.body.toString('utf8'), what).toBe(indexHtml);
          } else {
            expect(response.status, what).toBe(401);
            expect(response.headers['www-authenticate'], what).toBe('Bearer realm="records"');
          }
        }
      }
      // A wrong token is no token.
      const wrong = await rawRequest(`${fx.url}${path}`, { headers: { Authorization: 'Bearer wrong' } });
      expect(leaks(wrong), path).toEqual([]);
    }
  });

  it('every kind of URL that shows a record shows it with the token, and nothing of it without', async () => {
    const lit = deployments.find((deployment) => deployment.key === 'LIT')!;
    const mm = deployments.find((deployment) => deployment.key === 'MM')!;
    const title = specById('1030').title;
    const cases: [path: string, accept: string, shows: string][] = [
      [`${lit.basePath}/records/1030`, 'application/json', title],
      [`${lit.basePath}/records/1030`, 'application/xml', title],
      [`${lit.basePath}/records/1030`, 'application/x-bibtex', title],
      [`${lit.basePath}/records?q=plasma`, 'application/json', title],
      [`${lit.basePath}/records?q=plasma&rows=1`, 'application/xml', title],
      [`${lit.basePath}/feed?q=plasma`, '*/*', title],
      [`${lit.basePath}/facets?facet=country`, '*/*', 'Germany'],
      ['/unapi?id=LIT:1030&format=mods', '*/*', title],
      ['/unapi?id=LIT:1030&format=ris', '*/*', title],
      ['/unapi?id=LIT:1030&format=bibtex', '*/*', title],
      ['/files/fulltext/lit/1011.txt', '*/*', specById('1011').fulltext!],
      ['/lit/records/1030', 'text/html', `<meta name="citation_title" content="${title}"`],
      ['/lit?q=plasma', 'text/html', `>${title}</a>`],
      [`/${mm.slug}/records/1030`, 'text/html', 'citation_title'],
      ...mediaFiles.filter((file) => !file.endsWith('.html')).map((file): [string, string, string] => [`/media/${file}`, '*/*', '']),
    ];
    for (const [path, accept, shows] of cases) {
      const open = await rawRequest(`${fx.url}${path}`, { headers: { Accept: accept } });
      expect(leaks(open), path).toEqual([]);
      expect(open.status === 401 || open.body.toString('utf8') === indexHtml, `${path} without the token: ${open.status}`).toBe(true);
      const authorized = await rawRequest(`${fx.url}${path}`, { headers: { Accept: accept, ...withToken } });
      expect(authorized.status, path).toBe(200);
      expect(authorized.body.toString('utf8'), path).toContain(shows);
      expect(authorized.body.length, path).toBeGreaterThan(0);
    }
  });

  it('the app shell and its files are public and carry no record data', async () => {
    for (const path of ['/', '/lit', '/lit?q=plasma', '/assets/app-1234.js', '/config.json', '/lit/opensearch.xml']) {
      const response = await rawRequest(`${fx.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(leaks(response), path).toEqual([]);
    }
  });
});
