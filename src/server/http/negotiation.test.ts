import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { fixtureIds, getJson, rawRequest, stressTitle, useFixture, type Rec } from './server-fixture.test-support';

/**
 * Content negotiation: JSON by default, XML and BibTeX by Accept (with q-values), each
 * format carrying the same records. XML is read back with fast-xml-parser and BibTeX with
 * citation-js, the way a client or a reference manager would.
 */

const prefix = 'OSTI';
const fx = useFixture({ bibtexPrefix: prefix });
const byDeployment = deployments.map((deployment) => [deployment.key, deployment] as const);

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  ignoreDeclaration: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // records/record and the singular children of plural containers are lists even when single.
  isArray: (_name, jpath, _leaf, isAttribute) => !isAttribute && (jpath === 'records.record' || String(jpath).split('.').length === 4),
});

type XmlRecord = Record<string, unknown>;

async function fetchText(url: string, accept?: string) {
  const response = await rawRequest(url, accept === undefined ? {} : { headers: { Accept: accept } });
  return { status: response.status, contentType: String(response.headers['content-type']), text: response.body.toString('utf8') };
}

function xmlRecords(text: string): XmlRecord[] {
  const parsed = xmlParser.parse(text) as { records?: { record?: XmlRecord[] } | '' };
  expect(parsed.records, 'root element records').toBeDefined();
  return parsed.records === '' ? [] : (parsed.records?.record ?? []);
}

/** Characters XML 1.0 cannot carry; the XML form leaves them out. */
const withoutControls = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '');

/** The value a record's JSON field should have when read back from XML. */
function expectedXmlValue(deployment: Deployment, name: string, value: unknown): unknown {
  const field = deployment.fields.find((candidate) => candidate.name === name)!;
  if (field.kind === 'links' || field.kind === 'list') {
    const items = (value ?? []) as unknown[];
    if (items.length === 0) return '';
    return { [field.item!]: items.map((item) => (typeof item === 'string' ? withoutControls(item) : item)) };
  }
  return value === null || value === undefined ? '' : withoutControls(String(value));
}

function xmlElementName(deployment: Deployment, name: string) {
  return deployment.fields.find((field) => field.name === name)!.xml ?? name;
}

describe('JSON is the default', () => {
  it.each([
    ['no Accept header', undefined],
    ['*/*', '*/*'],
    ['application/json', 'application/json'],
    ['only unsupported types', 'text/html, image/png;q=0.9'],
    ['application/*', 'application/*'],
  ])('%s gives JSON', async (_label, accept) => {
    for (const deployment of deployments) {
      const { status, contentType, text } = await fetchText(fx.list(deployment, 'rows=2'), accept);
      expect(status).toBe(200);
      expect(contentType).toBe('application/json; charset=utf-8');
      expect(JSON.parse(text)).toHaveLength(2);
    }
  });
});

describe('q-values choose the format', () => {
  it.each([
    ['application/xml;q=0.5, application/x-bibtex', 'bibtex'],
    ['application/x-bibtex;q=0.2, application/xml;q=0.9', 'xml'],
    ['application/json;q=0.1, text/xml', 'xml'],
    ['application/xml;q=0, */*;q=0.1', 'json'],
    ['application/x-bibtex;q=0, application/json;q=0.3', 'json'],
    ['text/x-bibtex', 'bibtex'],
  ])('Accept: %s gives %s', async (accept, format) => {
    const deployment = deployments[0]!;
    const { status, contentType, text } = await fetchText(fx.list(deployment, 'rows=2'), accept);
    expect(status).toBe(200);
    if (format === 'json') {
      expect(contentType).toBe('application/json; charset=utf-8');
      expect(JSON.parse(text)).toHaveLength(2);
    } else if (format === 'xml') {
      expect(contentType).toMatch(/^(application|text)\/xml; charset=utf-8$/);
      expect(xmlRecords(text)).toHaveLength(2);
    } else {
      expect(contentType).toMatch(/^(application|text)\/x-bibtex; charset=utf-8$/);
      expect(new Cite(text).data).toHaveLength(2);
    }
  });
});

describe.each(byDeployment)('%s XML', (_key, deployment) => {
  it.each(['application/xml', 'text/xml'])('Accept: %s gives XML with a records root and one record per JSON record', async (accept) => {
    const { status, contentType, text } = await fetchText(fx.list(deployment, 'rows=7'), accept);
    expect(status).toBe(200);
    expect(contentType).toMatch(/^(application|text)\/xml; charset=utf-8$/);
    const { body } = await getJson<Rec[]>(fx.list(deployment, 'rows=7'));
    const records = xmlRecords(text);
    expect(records.map((record) => record.repo_id)).toEqual(body.map((record) => record.repo_id));
  });

  it('every field element is present, plural containers hold singular children, and values equal the JSON ones', async () => {
    const url = fx.list(deployment, 'rows=1000');
    const { body } = await getJson<Rec[]>(url);
    const records = xmlRecords((await fetchText(url, 'application/xml')).text);
    expect(records).toHaveLength(fixtureIds.length);
    const elementNames = deployment.fields.map((field) => field.xml ?? field.name).sort();
    records.forEach((xml, index) => {
      const json = body[index]!;
      expect(Object.keys(xml).sort(), `elements of ${json.repo_id}`).toEqual(elementNames);
      for (const field of deployment.fields) {
        expect(xml[xmlElementName(deployment, field.name)], `${field.name} of ${json.repo_id}`).toEqual(
          expectedXmlValue(deployment, field.name, json[field.name]),
        );
      }
    });
  });

  it('escapes markup characters and keeps diacritics', async () => {
    const records = xmlRecords((await fetchText(fx.list(deployment, 'repo_id=1038'), 'application/xml')).text);
    expect(records[0]!.title).toBe(withoutControls(stressTitle));
    const authors = records[0]!.authors as { author: string[] };
    expect(authors.author[0]).toBe('Müller, Jürgen [Labor & Co. {Süd}] (ORCID:0000-0001-2345-6789)');
  });

  it.runIf(deployment.linkRels.length > 0)('links are <link rel href/> elements with absolute hrefs', async () => {
    const records = xmlRecords((await fetchText(fx.list(deployment, 'repo_id=1028'), 'application/xml')).text);
    const links = (records[0]!.links as { link: { rel: string; href: string }[] }).link;
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(Object.keys(link).sort()).toEqual(['href', 'rel']);
      expect(link.href.startsWith(`${fx.url}/`) || link.href.startsWith('https://')).toBe(true);
    }
    expect(links.map((link) => link.rel)).toContain('citation');
  });

  it('the single-record endpoint answers in the same list structure', async () => {
    const records = xmlRecords((await fetchText(`${fx.list(deployment)}/1007`, 'application/xml')).text);
    expect(records).toHaveLength(1);
    expect(records[0]!.repo_id).toBe('1007');
  });
});

describe('XML naming differences', () => {
  it('DC1 sends contributor_org in JSON and a contributing_org element in XML', async () => {
    const dc1 = deployments.find((deployment) => deployment.key === 'DC1')!;
    const { body } = await getJson<Rec[]>(fx.list(dc1, 'repo_id=1027'));
    expect(body[0]!.contributor_org).toBe('Zephyrine Institute');
    expect(body[0]).not.toHaveProperty('contributing_org');
    const [xml] = xmlRecords((await fetchText(fx.list(dc1, 'repo_id=1027'), 'application/xml')).text);
    expect(xml!.contributing_org).toBe('Zephyrine Institute');
    expect(xml).not.toHaveProperty('contributor_org');
  });

  it('DC0 records have no links, in JSON or XML', async () => {
    const dc0 = deployments.find((deployment) => deployment.key === 'DC0')!;
    const { body } = await getJson<Rec[]>(fx.list(dc0, 'rows=1000'));
    for (const record of body) expect(record).not.toHaveProperty('links');
    const text = (await fetchText(fx.list(dc0, 'rows=1000'), 'application/xml')).text;
    expect(text).not.toContain('<link');
    for (const record of xmlRecords(text)) expect(record).not.toHaveProperty('links');
  });

  it('DC0 organisations are single strings; MM uses plural contributing_orgs', async () => {
    const dc0 = deployments.find((deployment) => deployment.key === 'DC0')!;
    const mm = deployments.find((deployment) => deployment.key === 'MM')!;
    const [dc0Xml] = xmlRecords((await fetchText(fx.list(dc0, 'repo_id=1025'), 'application/xml')).text);
    expect(dc0Xml!.sponsor_org).toBe('Zephyrine Foundation');
    const [mmXml] = xmlRecords((await fetchText(fx.list(mm, 'repo_id=1027'), 'application/xml')).text);
    expect(mmXml!.contributing_orgs).toEqual({ contributing_org: ['Zephyrine Institute'] });
  });
});

interface CslEntry {
  id: string;
  'citation-key'?: string;
  title?: string;
  author?: { family?: string; given?: string; literal?: string }[];
  issued?: { 'date-parts': number[][] };
}

describe.each(byDeployment)('%s BibTeX', (_key, deployment) => {
  it('Accept: application/x-bibtex gives entries citation-js reads back: keys PREFIX_ID, same titles, same author counts', async () => {
    const url = fx.list(deployment, 'rows=1000');
    const { status, contentType, text } = await fetchText(url, 'application/x-bibtex');
    expect(status).toBe(200);
    expect(contentType).toBe('application/x-bibtex; charset=utf-8');
    const { body } = await getJson<Rec[]>(url);
    const entries = new Cite(text).data as CslEntry[];
    expect(entries).toHaveLength(body.length);
    entries.forEach((entry, index) => {
      const record = body[index]!;
      expect(entry['citation-key'] ?? entry.id).toBe(`${prefix}_${record.repo_id}`);
      const title = withoutControls(String(record.title)).replace(/\s+/g, ' ').trim();
      expect(entry.title, `title of ${record.repo_id}`).toBe(title);
      expect(entry.author ?? [], `authors of ${record.repo_id}`).toHaveLength((record.authors as string[]).length);
      const year = Number(String(record.publication_date).slice(0, 4));
      expect(entry.issued?.['date-parts'][0]?.[0]).toBe(year);
    });
  });

  it('author names lose affiliations and ORCIDs', async () => {
    const { text } = await fetchText(fx.list(deployment, 'repo_id=1007'), 'application/x-bibtex');
    expect(text).not.toMatch(/ORCID|Technische|\[|0000000195444980/);
    const [entry] = new Cite(text).data as CslEntry[];
    expect(entry!.author).toEqual([
      expect.objectContaining({ family: 'Müller', given: 'H. P.' }),
      expect.objectContaining({ family: 'Rossi', given: 'G.' }),
    ]);
    const stress = new Cite((await fetchText(fx.list(deployment, 'repo_id=1038'), 'application/x-bibtex')).text).data as CslEntry[];
    const names = JSON.stringify(stress[0]!.author);
    expect(names).not.toMatch(/ORCID|Labor|Süd/);
    expect(stress[0]!.author![0]).toEqual(expect.objectContaining({ family: 'Müller', given: 'J.' }));
  });

  it('writes one entry for a single record', async () => {
    const { status, text } = await fetchText(`${fx.list(deployment)}/1038`, 'application/x-bibtex');
    expect(status).toBe(200);
    const entries = new Cite(text).data as CslEntry[];
    expect(entries).toHaveLength(1);
    expect(entries[0]!.title).toBe(withoutControls(stressTitle));
  });
});
