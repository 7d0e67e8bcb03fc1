import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { apiErrorSchema } from '../../formats/error';
import { getJson, rawRequest, specById, useFixture, type Rec } from './server-fixture.test-support';

/**
 * Local resources: links stored root-relative come back absolute on this server, and the
 * full texts and media they point at are served (media with byte ranges, which players
 * use to seek).
 */

const fx = useFixture();
const withLinks = deployments.filter((deployment) => deployment.fields.some((field) => field.name === 'links'));
const byDeployment = deployments.map((deployment) => [deployment.key, deployment] as const);
const mm = deployments.find((deployment) => deployment.key === 'MM')!;
const mediaDir = fileURLToPath(new URL('../../../public/media/', import.meta.url));

type Link = { rel: string; href: string };
const linksOf = (record: Rec) => record.links as Link[];

describe.each(withLinks.map((deployment) => [deployment.key, deployment] as const))('%s links', (_key, deployment) => {
  it('root-relative links come back absolute on this server, in the list and the single record', async () => {
    const { body: list } = await getJson<Rec[]>(fx.list(deployment, 'repo_id=1011'));
    const { body: single } = await getJson<Rec[]>(`${fx.list(deployment)}/1011`);
    for (const record of [list[0]!, single[0]!]) {
      const links = linksOf(record);
      expect(links).toContainEqual({ rel: 'citation', href: `${fx.url}/${deployment.slug}/records/1011` });
      if (deployment.linkRels.includes('fulltext')) {
        expect(links).toContainEqual({ rel: 'fulltext', href: `${fx.url}/files/fulltext/${deployment.slug}/1011.txt` });
      }
      for (const link of links) expect(new URL(link.href).protocol).toMatch(/^https?:$/);
    }
  });

  it('absolute links are left alone', async () => {
    const { body } = await getJson<Rec[]>(fx.list(deployment, 'repo_id=1002'));
    expect(linksOf(body[0]!)).toEqual([{ rel: 'citation', href: 'https://www.osti.gov/biblio/1002' }]);
  });

  it('links are absolute for the host the client used', async () => {
    const response = await rawRequest(fx.list(deployment, 'repo_id=1011'), { headers: { Host: 'records.example.org:8080' } });
    const [record] = JSON.parse(response.body.toString('utf8')) as Rec[];
    expect(linksOf(record!).map((link) => link.href.slice(0, 'http://records.example.org:8080/'.length))).toEqual(
      linksOf(record!).map(() => 'http://records.example.org:8080/'),
    );
  });

  it('a Host header that is not a host name is never copied into links', async () => {
    const response = await rawRequest(fx.list(deployment, 'repo_id=1011'), { headers: { Host: 'evil.example/"><script>' } });
    const [record] = JSON.parse(response.body.toString('utf8')) as Rec[];
    for (const link of linksOf(record!)) expect(link.href.startsWith(`${fx.url}/`)).toBe(true);
  });
});

describe('full texts', () => {
  it.each(
    withLinks.filter((deployment) => deployment.linkRels.includes('fulltext')).map((deployment) => [deployment.key, deployment] as const),
  )('%s: the rel=fulltext link serves the stored full text as text/plain', async (_key, deployment) => {
    for (const id of ['1011', '1028', '1001']) {
      const { body } = await getJson<Rec[]>(`${fx.list(deployment)}/${id}`);
      const href = linksOf(body[0]!).find((link) => link.rel === 'fulltext')!.href;
      const response = await fetch(href);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toBe(specById(id).fulltext);
    }
  });

  it.each(byDeployment)(
    '%s: GET /files/fulltext/<slug>/<id>.txt serves the text; a record without one is 404',
    async (_key, deployment) => {
      const ok = await fetch(`${fx.url}/files/fulltext/${deployment.slug}/1011.txt`);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe(specById('1011').fulltext);
      for (const path of [
        `/files/fulltext/${deployment.slug}/1002.txt`,
        `/files/fulltext/${deployment.slug}/999999.txt`,
        '/files/fulltext/nope/1011.txt',
      ]) {
        const { status, body } = await getJson<unknown>(`${fx.url}${path}`);
        expect(status, path).toBe(404);
        expect(apiErrorSchema.parse(body).statusCode).toBe(404);
      }
    },
  );
});

describe('media', () => {
  const video = readFileSync(`${mediaDir}sample-video.mp4`);

  it('MM media links are absolute and point at files this server serves', async () => {
    const { body } = await getJson<Rec[]>(`${fx.list(mm)}/1031`);
    const media = linksOf(body[0]!).find((link) => link.rel === 'media');
    expect(media?.href).toBe(`${fx.url}/media/sample-video.mp4`);
    const response = await rawRequest(media!.href);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.body.equals(video)).toBe(true);
  });

  it('serves byte ranges with 206 and Content-Range', async () => {
    const url = `${fx.url}/media/sample-video.mp4`;
    const first = await rawRequest(url, { headers: { Range: 'bytes=0-99' } });
    expect(first.status).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-99/${video.length}`);
    expect(first.body.equals(video.subarray(0, 100))).toBe(true);
    const middle = await rawRequest(url, { headers: { Range: 'bytes=1000-' } });
    expect(middle.status).toBe(206);
    expect(middle.body.equals(video.subarray(1000))).toBe(true);
    const suffix = await rawRequest(url, { headers: { Range: 'bytes=-10' } });
    expect(suffix.status).toBe(206);
    expect(suffix.body.equals(video.subarray(video.length - 10))).toBe(true);
    const beyond = await rawRequest(url, { headers: { Range: `bytes=${video.length + 10}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${video.length}`);
  });

  it('the sample-melody.wma linked from record 1030 is served', async () => {
    const { body } = await getJson<Rec[]>(`${fx.list(mm)}/1030`);
    const media = linksOf(body[0]!).find((link) => link.rel === 'media')!;
    const response = await rawRequest(media.href);
    expect(response.status).toBe(200);
    expect(response.body.equals(readFileSync(`${mediaDir}sample-melody.wma`))).toBe(true);
  });

  it('the sample-page.html linked from record 1032 is not served: an HTML page on the app’s origin could run script', async () => {
    const { body } = await getJson<Rec[]>(`${fx.list(mm)}/1032`);
    const media = linksOf(body[0]!).find((link) => link.rel === 'media')!;
    expect((await rawRequest(media.href)).status).toBe(404);
  });

  it('never serves files outside the media folder', async () => {
    for (const path of [
      '/media/..%2Fpackage.json',
      '/media/%2e%2e/%2e%2e/package.json',
      '/media/..%5Cpackage.json',
      '/media/%00',
      '/media/nope.mp4',
    ]) {
      const response = await rawRequest(`${fx.url}${path}`);
      expect(response.status, path).toBe(404);
    }
  });
});

describe('static files cannot be turned against the app', () => {
  const root = mkdtempSync(join(tmpdir(), 'records-http-links-'));
  const outside = mkdtempSync(join(tmpdir(), 'records-http-outside-'));
  const staticDir = join(root, 'dist');
  const media = join(root, 'media');
  mkdirSync(staticDir);
  mkdirSync(media);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(outside, 'secret.txt'), 'a secret outside the served folders');
  writeFileSync(join(outside, 'secret.mp4'), 'not really a video');
  symlinkSync(join(outside, 'secret.txt'), join(staticDir, 'leak.txt'));
  symlinkSync(outside, join(staticDir, 'out'));
  symlinkSync(join(outside, 'secret.mp4'), join(media, 'leak.mp4'));
  copyFileSync(`${mediaDir}sample-video.mp4`, join(media, 'ok.mp4'));
  copyFileSync(`${mediaDir}sample-page.html`, join(media, 'page.html'));
  writeFileSync(join(media, 'drawing.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  const served = useFixture({ staticDir, mediaDir: media });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('never follows a symlink out of the served folder', async () => {
    for (const path of ['/leak.txt', '/out/secret.txt', '/media/leak.mp4']) {
      const response = await rawRequest(`${served.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.body.toString('utf8'), path).not.toContain('a secret outside');
      expect(response.body.toString('utf8'), path).not.toContain('not really a video');
    }
  });

  it('serves only audio, video and raster images from /media, sandboxed and never sniffed', async () => {
    const video = await rawRequest(`${served.url}/media/ok.mp4`);
    expect(video.status).toBe(200);
    expect(video.headers['content-type']).toBe('video/mp4');
    expect(video.headers['x-content-type-options']).toBe('nosniff');
    expect(String(video.headers['content-security-policy'])).toMatch(/^sandbox;.*default-src 'none'/);
    for (const path of ['/media/page.html', '/media/drawing.svg']) {
      const response = await rawRequest(`${served.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.body.toString('utf8'), path).not.toContain('<script>');
    }
  });
});

describe('the app', () => {
  const staticDir = mkdtempSync(join(tmpdir(), 'records-http-static-'));
  const indexHtml = '<!doctype html><html><head><title>Records Explorer</title></head><body><div id="root"></div></body></html>';
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), indexHtml);
  writeFileSync(join(staticDir, 'assets', 'app-1234.js'), 'console.log("app");');
  const app = useFixture({ staticDir });
  afterAll(() => rmSync(staticDir, { recursive: true, force: true }));

  it('serves index.html for the app’s routes with a strict Content-Security-Policy', async () => {
    for (const path of ['/', '/lit/records/1001', '/search?q=wind']) {
      const response = await rawRequest(`${app.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      // A record page's HTML has its meta tags added to the head (tested below) and its content in the root (record-page.test.ts).
      expect(
        response.body
          .toString('utf8')
          .replace(/\n?<meta [^>]*data-record-meta>|<link rel="(search|unapi-server)" [^>]*>/g, '')
          .replace(/<div id="root">.*<\/div><\/body>/s, '<div id="root"></div></body>'),
      ).toBe(indexHtml);
      const csp = String(response.headers['content-security-policy']);
      for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'none'"]) {
        expect(csp, directive).toContain(directive);
      }
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
    }
  });

  it('serves hashed assets as immutable, and a missing asset is 404 rather than index.html', async () => {
    const asset = await rawRequest(`${app.url}/assets/app-1234.js`);
    expect(asset.status).toBe(200);
    expect(String(asset.headers['content-type'])).toMatch(/^text\/javascript/);
    expect(String(asset.headers['cache-control'])).toContain('immutable');
    expect((await rawRequest(`${app.url}/assets/missing-0000.js`)).status).toBe(404);
  });

  it('sends an asset compressed as asked, answers 304 to its ETag, and sends a rebuilt one afresh', async () => {
    const path = join(staticDir, 'assets', 'chunk-5678.js');
    const script = (n: number) => `export const part = ${n};\n`.repeat(400);
    writeFileSync(path, script(1));
    const asked = { headers: { 'Accept-Encoding': 'br' } };
    const first = await rawRequest(`${app.url}/assets/chunk-5678.js`, asked);
    expect(first.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(first.body).toString()).toBe(script(1));
    const etag = String(first.headers.etag);
    const again = await rawRequest(`${app.url}/assets/chunk-5678.js`, { headers: { ...asked.headers, 'If-None-Match': etag } });
    expect(again.status).toBe(304);

    writeFileSync(path, script(22));
    const rebuilt = await rawRequest(`${app.url}/assets/chunk-5678.js`, { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag } });
    expect(rebuilt.status).toBe(200);
    expect(gunzipSync(rebuilt.body).toString()).toBe(script(22));
  });

  it('a record page carries the record’s citation meta tags in its HTML, escaped, for clients that run no script', async () => {
    const response = await rawRequest(`${app.url}/lit/records/1001`);
    const html = response.body.toString('utf8');
    const tags = [...html.matchAll(/<meta name="([^"]+)" content="([^"]*)" data-record-meta>/g)].map((match) => [match[1], match[2]]);
    expect(tags).toContainEqual([
      'citation_title',
      specById('1001').title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
    ]);
    expect(tags.filter(([name]) => name === 'citation_author').length).toBe(specById('1001').authors?.length ?? 0);
    expect(html.indexOf('data-record-meta')).toBeLessThan(html.indexOf('</head>'));
    // Any other page, and a record that does not exist, carry none.
    for (const path of ['/lit', '/lit/records/nope']) {
      expect((await rawRequest(`${app.url}${path}`)).body.toString('utf8'), path).not.toContain('data-record-meta');
    }
  });

  it('says what kind of work each record page is: an article, a dataset, a patent, a video', async () => {
    const cases = [
      ['LIT', 'Journal Article'],
      ['DC1', 'Dataset'],
      ['PAT', 'Patent'],
      ['MM', 'MovingImage'],
    ] as const;
    for (const [key, dcType] of cases) {
      const deployment = deployments.find((candidate) => candidate.key === key)!;
      const html = (await rawRequest(`${app.url}/${deployment.slug}/records/1030`)).body.toString('utf8');
      const tags = new Map(
        [...html.matchAll(/<meta name="([^"]+)" content="([^"]*)" data-record-meta>/g)].map((match) => [match[1]!, match[2]!]),
      );
      expect(tags.get('DC.type'), key).toBe(dcType);
      expect(tags.get('citation_title'), key).toBe(specById('1030').title);
      expect(tags.get('citation_doi'), key).toBe(specById('1030').doi);
      expect(tags.get('citation_publication_date'), key).toBe('2003/03/03');
      if (key !== 'LIT') expect(tags.has('citation_journal_title'), `${key} is not a journal article`).toBe(false);
    }
  });

  it('links an OpenSearch description per deployment from every app page, each a working search template', async () => {
    const html = (await rawRequest(`${app.url}/lit`)).body.toString('utf8');
    const hrefs = [
      ...html.matchAll(/<link rel="search" type="application\/opensearchdescription\+xml" title="[^"]+" href="([^"]+)">/g),
    ].map((match) => match[1]!);
    expect(hrefs).toEqual(deployments.map((deployment) => `/${deployment.slug}/opensearch.xml`));
    for (const deployment of deployments) {
      const response = await rawRequest(`${app.url}/${deployment.slug}/opensearch.xml`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/opensearchdescription+xml; charset=utf-8');
      const xml = response.body.toString('utf8');
      expect(XMLValidator.validate(xml)).toBe(true);
      const doc = new XMLParser({ ignoreAttributes: false }).parse(xml).OpenSearchDescription;
      expect(doc['@_xmlns']).toBe('http://a9.com/-/spec/opensearch/1.1/');
      expect(String(doc.ShortName).length).toBeLessThanOrEqual(16);
      const urls = (Array.isArray(doc.Url) ? doc.Url : [doc.Url]) as Record<string, string>[];
      const page = urls.find((url) => url['@_type'] === 'text/html')!['@_template']!.replace('{searchTerms}', 'wind');
      expect(page).toBe(`${app.url}/${deployment.slug}?q=wind`);
      expect((await rawRequest(page)).status).toBe(200);
      const apiTemplate = urls.find((url) => url['@_type'] === 'application/json')!['@_template']!;
      const api = apiTemplate.replace('{searchTerms}', 'wind').replace('{startPage?}', '1');
      const { status, body } = await getJson<Rec[]>(api);
      expect(status, api).toBe(200);
      expect(body.length).toBeGreaterThan(0);
    }
  });

  it('API paths are never answered with the app', async () => {
    const response = await rawRequest(`${app.url}/api/unknown/v1/records`);
    expect(response.status).toBe(404);
    expect(apiErrorSchema.parse(JSON.parse(response.body.toString('utf8'))).statusCode).toBe(404);
    const { status, body } = await getJson<Rec[]>(app.list(deployments[0]!, 'rows=1'));
    expect(status).toBe(200);
    expect(body).toHaveLength(1);
  });
});
