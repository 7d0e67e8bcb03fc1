import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { unapiId } from '../../formats/citation-meta';
import { rawRequest, specById, useFixture } from './server-fixture.test-support';

/** unAPI as its specification (unapi.info) describes the three kinds of request. */

const fx = useFixture();
const staticDir = mkdtempSync(join(tmpdir(), 'records-unapi-app-'));
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><html><head><title>app</title></head><body></body></html>');
const app = useFixture({ staticDir });
afterAll(() => rmSync(staticDir, { recursive: true, force: true }));
const lit = deploymentByKey('LIT')!;
const get = async (query: string) => {
  const response = await rawRequest(`${fx.url}/unapi${query}`);
  return { ...response, text: response.body.toString('utf8') };
};
const formatNames = (xml: string) => {
  const formats = new XMLParser({ ignoreAttributes: false }).parse(xml).formats;
  return ([] as Record<string, string>[]).concat(formats.format).map((format) => format['@_name']);
};

describe('unAPI', () => {
  it('answers malformed percent-encoding with 400 and logs nothing', async () => {
    const logged = vi.spyOn(console, 'error');
    try {
      for (const query of ['?id=%ZZ', '?id=LIT:1001&format=%E0%A4%A', '?%ZZ=1']) {
        const response = await get(query);
        expect(response.status, query).toBe(400);
        expect(JSON.parse(response.text).statusCode, query).toBe(400);
      }
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it('lists its formats without an id (200), and for a record without a format (300)', async () => {
    const all = await get('');
    expect(all.status).toBe(200);
    expect(XMLValidator.validate(all.text)).toBe(true);
    expect(formatNames(all.text)).toEqual(['rdf_zotero', 'mods', 'ris', 'bibtex']);
    const one = await get('?id=LIT:1001');
    expect(one.status).toBe(300);
    expect(one.text).toContain('<formats id="LIT:1001">');
  });

  it('answers each format for a record', async () => {
    const title = specById('1001').title;
    const bibtex = await get('?id=LIT:1001&format=bibtex');
    expect(bibtex.status).toBe(200);
    expect(bibtex.headers['content-type']).toBe('application/x-bibtex; charset=utf-8');
    expect(bibtex.text).toMatch(/^@misc\{records_1001,/);
    const ris = await get('?id=LIT:1001&format=ris');
    expect(ris.headers['content-type']).toBe('application/x-research-info-systems; charset=utf-8');
    expect(ris.text).toContain(`TI  - ${title}`);
    const mods = await get('?id=LIT:1001&format=mods');
    expect(mods.headers['content-type']).toBe('application/mods+xml; charset=utf-8');
    expect(XMLValidator.validate(mods.text)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(mods.text).mods;
    expect(parsed['@_xmlns']).toBe('http://www.loc.gov/mods/v3');
    expect(String(parsed.titleInfo.title)).toBe(title);
    const rdf = await get('?id=LIT:1001&format=rdf_zotero');
    expect(rdf.headers['content-type']).toBe('application/rdf+xml; charset=utf-8');
    expect(XMLValidator.validate(rdf.text)).toBe(true);
    const description = new XMLParser().parse(rdf.text)['rdf:RDF']['rdf:Description'];
    expect(String(description['dc:title'])).toBe(title);
  });

  it('is 404 for an unknown id and 406 for an unknown format', async () => {
    for (const id of ['LIT:nope', 'XX:1001', 'nope', 'LIT:'])
      expect((await get(`?id=${encodeURIComponent(id)}&format=bibtex`)).status, id).toBe(404);
    // Every catalog of the fixture has record 1001: a bare id names them all.
    const ambiguous = await get('?id=1001&format=bibtex');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.text).toContain('<id>LIT:1001</id>');
    expect((await get('?id=LIT:1001&format=endnote')).status).toBe(406);
  });

  it('is linked from the head of app pages, and results name their records for it', async () => {
    const html = (await rawRequest(`${app.url}/${lit.slug}`)).body.toString('utf8');
    expect(html).toMatch(/<link rel="unapi-server" type="application\/xml" title="unAPI" href="\/unapi">[^]*<\/head>/);
    expect(unapiId(lit, '1001')).toBe('LIT:1001');
  });
});
