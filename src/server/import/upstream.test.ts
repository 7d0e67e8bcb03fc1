import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { recordSchema } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import type { StoredRecord } from '../store/types';
import { deployment, importError, realData, realFiles } from './real-files.test-support';
import { parseUpstreamJson, parseUpstreamXml } from './upstream';

const readReal = (name: string) => readFileSync(new URL(name, realData), 'utf8');

const dc1 = deployment('DC1');
const dc0 = deployment('DC0');
const lit = deployment('LIT');
const mm = deployment('MM');
const enr = deployment('ENR');

const { geothermal, plasma, litJson, litXml } = realFiles;

const byId = (records: readonly StoredRecord[], id: string) => {
  const found = records.find((stored) => stored.record.repo_id === id);
  if (!found) throw new Error(`no record ${id}`);
  return found;
};

function expectTableShape(target: Deployment, records: readonly StoredRecord[]) {
  const names = target.fields.map((field) => field.name);
  for (const { record } of records) {
    expect(Object.keys(record)).toEqual(names);
    expect(recordSchema(target).safeParse(record).success).toBe(true);
  }
}

describe('real upstream JSON', () => {
  it('imports both dataset catalog files as DC1, every record in the table shape', () => {
    const first = parseUpstreamJson(dc1, readReal(geothermal), geothermal);
    const second = parseUpstreamJson(dc1, readReal(plasma), plasma);
    expect(first).toHaveLength(250);
    expect(second).toHaveLength(209);
    expectTableShape(dc1, [...first, ...second]);
  });

  it('maps upstream names to the spec fields of DC1', () => {
    const stored = byId(parseUpstreamJson(dc1, readReal(geothermal), geothermal), '2368548');
    const { record } = stored;
    expect(record.repo_id).toBe('2368548');
    expect(record.agency_contract_number).toBe('EE0007080');
    expect(record.contributor_org).toBe('Energy and Geoscience Institute at the University of Utah');
    expect(record.research_orgs).toEqual(['DOE Geothermal Data Repository', 'Energy and Geoscience Institute at the University of Utah']);
    expect(record.doi).toBe('https://doi.org/10.15121/2368548');
    expect(record.publication_date).toBe('2024-04-20T04:00:00Z');
    expect(record.site_ownership_code).toBe('DOE-GDR');
    expect(record.publisher).toBe('');
    expect(record.related_identifiers).toEqual([]);
    expect(record.dataset_size).toBeNull();
    expect(record.links).toEqual([
      { rel: 'citation', href: 'https://www.osti.gov/dataexplorer/biblio/2368548' },
      { rel: 'fulltext', href: 'https://www.osti.gov/dataexplorer/servlets/purl/2368548' },
    ]);
    for (const upstreamOnly of ['osti_id', 'doe_contract_number', 'contributing_org', 'contributing_organizations']) {
      expect(record).not.toHaveProperty(upstreamOnly);
    }
    // DC1 has a field for the submitter code, and no record carries a full text upstream.
    expect(stored.site).toBeUndefined();
    expect(stored.fulltext).toBeUndefined();
  });

  it('keeps dataset sizes as numbers and related identifiers as lists', () => {
    const { record } = byId(parseUpstreamJson(dc1, readReal(plasma), plasma), '1367164');
    expect(record.dataset_size).toBe(0);
    expect(record.format).toBe('Size: 4.28 MB');
    expect(record.related_identifiers).toContain('DOI; IsCitedBy; 10.1063/1.4963146');
  });

  it('maps a DC1 file into DC0 with singular organisation strings and no links', () => {
    const records = parseUpstreamJson(dc0, readReal(geothermal), geothermal);
    expectTableShape(dc0, records);
    const stored = byId(records, '2368548');
    expect(stored.record.research_org).toBe('DOE Geothermal Data Repository; Energy and Geoscience Institute at the University of Utah');
    expect(stored.record.sponsor_org).toMatch(/^USDOE Office of Energy Efficiency/);
    expect(stored.record.contributing_org).toBe('Energy and Geoscience Institute at the University of Utah');
    expect(stored.record).not.toHaveProperty('links');
    // DC0 has no field for the submitter code, so it travels beside the record.
    expect(stored.site).toBe('DOE-GDR');
  });

  it('imports the literature JSON as LIT and drops fields the spec does not define', () => {
    const records = parseUpstreamJson(lit, readReal(litJson), litJson);
    expect(records).toHaveLength(40);
    expectTableShape(lit, records);
    const { record } = byId(records, '1722943');
    expect(record).not.toHaveProperty('org_research');
    expect(record.agency_contract_number).toBe('AC02-05CH11231; AC05-76RL01830');
    expect(record.contributing_org).toMatch(/^Worldwide Hydrobiogeochemical Observation Network/);
    expect(record.journal_name).toBe('');
  });
});

describe('real upstream XML', () => {
  it('imports the literature XML sample as LIT', () => {
    const records = parseUpstreamXml(lit, readReal(litXml), litXml);
    expect(records).toHaveLength(31);
    expectTableShape(lit, records);
    const { record } = byId(records, '1828290');
    // One author is still a list, empty elements are empty values.
    expect(record.authors).toEqual(['Kumari, Sunita [Cold Spring Harbor Laboratory Cold Spring Harbor, NY (United States)]']);
    expect(record.publisher).toBe('');
    expect(record.contributing_org).toBe('');
    expect(record.links).toEqual([
      { rel: 'citation', href: 'https://www.osti.gov/biblio/1828290' },
      { rel: 'fulltext', href: 'https://www.osti.gov/servlets/purl/1828290' },
    ]);
  });

  it('yields the same records as the JSON form of the same upstream records', () => {
    const fromXml = parseUpstreamXml(lit, readReal(litXml), litXml);
    const fromJson = parseUpstreamJson(lit, readReal(litJson), litJson);
    // The two harvests differ in one real value: the record was re-entered in between.
    const knownDifferences: Record<string, string[]> = { '1637360': ['entry_date'] };
    for (const { record } of fromXml) {
      const other = byId(fromJson, record.repo_id).record;
      const skip = knownDifferences[record.repo_id] ?? [];
      const strip = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).filter(([name]) => !skip.includes(name)));
      expect(strip(record), record.repo_id).toEqual(strip(other));
    }
  });

  it('decodes character references once and keeps HTML markup as text', () => {
    const fromXml = parseUpstreamXml(lit, readReal(litXml), litXml);
    expect(byId(fromXml, '1637360').record.title).toBe(
      'Isolate genomes from "Ecogenomics of groundwater viruses suggests niche differentiation linked to specific environmental tolerance"',
    );
    expect(byId(fromXml, '1637903').record.description).toMatch(/^<p>This Narrative .* a bioreactor's response/);
  });
});

const oneRecordXml = (fields: string) => `<?xml version="1.0"?>\n<records><record>${fields}</record></records>`;

describe('field mapping', () => {
  it('fills each deployment’s own organisation fields from the upstream names', () => {
    const upstream = JSON.stringify([
      {
        osti_id: '1',
        research_orgs: ['Lab A', 'Lab B'],
        contributing_org: 'Org C; Org D',
        contributing_organizations: 'ignored when contributing_org has names',
      },
      { osti_id: '2', contributing_org: '', contributing_organizations: 'Fallback Org' },
    ]);
    const [first, second] = parseUpstreamJson(mm, upstream, 'orgs.json');
    expect(first?.record.research_orgs).toEqual(['Lab A', 'Lab B']);
    expect(first?.record.contributing_orgs).toEqual(['Org C', 'Org D']);
    expect(second?.record.contributing_orgs).toEqual(['Fallback Org']);
    const [asEnr] = parseUpstreamJson(enr, upstream, 'orgs.json');
    expect(asEnr?.record.contributing_org).toBe('Org C; Org D');
  });

  it('puts the submitter code in the deployment’s site field or beside the record', () => {
    const upstream = JSON.stringify([{ osti_id: '7', site_ownership_code: 'PPPL' }]);
    const [asEnr] = parseUpstreamJson(enr, upstream, 'site.json');
    expect(asEnr?.record.submitting_site).toBe('PPPL');
    expect(asEnr?.site).toBeUndefined();
    const [asLit] = parseUpstreamJson(lit, upstream, 'site.json');
    expect(asLit?.record).not.toHaveProperty('site_ownership_code');
    expect(asLit?.site).toBe('PPPL');
  });

  it('accepts loose but unambiguous types and normalises dates to UTC', () => {
    const upstream = JSON.stringify([
      {
        repo_id: 42,
        title: 1999,
        description: null,
        authors: 'Solo, Han',
        product_number: 7,
        dataset_size: '12.5',
        publication_date: '2024-04-20',
        entry_date: '2024-04-20T06:30:00+02:00',
        links: null,
      },
      { osti_id: '43', dataset_size: '', publication_date: '' },
    ]);
    const [first, second] = parseUpstreamJson(dc1, upstream, 'loose.json');
    expect(first?.record).toMatchObject({
      repo_id: '42',
      title: '1999',
      description: '',
      authors: ['Solo, Han'],
      product_number: '7',
      dataset_size: 12.5,
      publication_date: '2024-04-20T00:00:00Z',
      entry_date: '2024-04-20T04:30:00Z',
      links: [],
    });
    expect(second?.record).toMatchObject({ dataset_size: null, publication_date: '' });
  });

  it('keeps numeric-looking XML text as text', () => {
    const xml = oneRecordXml('<osti_id>0012</osti_id><doi>10.1000</doi><journal_volume>007</journal_volume>');
    const [stored] = parseUpstreamXml(lit, xml, 'ids.xml');
    expect(stored?.record).toMatchObject({ repo_id: '0012', doi: '10.1000', journal_volume: '007' });
  });

  it('reads empty and self-closing XML containers as empty lists', () => {
    const xml = oneRecordXml('<osti_id>5</osti_id><authors/><subjects></subjects><links/>');
    const [stored] = parseUpstreamXml(lit, xml, 'empty.xml');
    expect(stored?.record).toMatchObject({ authors: [], subjects: [], links: [] });
  });

  it('reads an XML dataset size as a number and DC1’s contributing_org element', () => {
    const xml = oneRecordXml('<osti_id>6</osti_id><dataset_size>2048</dataset_size><contributing_org>Org X</contributing_org>');
    const [stored] = parseUpstreamXml(dc1, xml, 'dc.xml');
    expect(stored?.record).toMatchObject({ dataset_size: 2048, contributor_org: 'Org X' });
  });
});

describe('broken input', () => {
  it('reports invalid JSON with the parser’s message and the file', () => {
    const error = importError(() => parseUpstreamJson(lit, '[{"osti_id": "1",', 'cut.json'));
    expect(error.message).toMatch(/^cut\.json: invalid JSON: /);
  });

  it('refuses a top-level object', () => {
    const error = importError(() => parseUpstreamJson(lit, '{"osti_id": "1"}', 'object.json'));
    expect(error.message).toBe('object.json: expected a JSON array of records at the top level, got an object');
  });

  it('refuses an array item that is not an object', () => {
    const error = importError(() => parseUpstreamJson(lit, '[{"osti_id": "1"}, "2"]', 'items.json'));
    expect(error.message).toBe('items.json, record 2: expected an object, got "2"');
  });

  it('refuses a record without an identifier, naming its position', () => {
    const error = importError(() => parseUpstreamJson(lit, '[{"osti_id": "1"}, {"osti_id": " ", "title": "x"}]', 'noid.json'));
    expect(error.message).toMatch(/^noid\.json, record 2, field osti_id: /);
    expect(error.location).toEqual({ record: 2, id: undefined, field: 'osti_id' });
  });

  it('refuses authors given as a number, naming record, id and field', () => {
    const error = importError(() => parseUpstreamJson(lit, '[{"osti_id": "9", "authors": 3}]', 'authors.json'));
    expect(error.message).toBe('authors.json, record 1 (id 9), field authors: expected a list of strings, got number 3');
  });

  it('refuses a list with a non-string item', () => {
    const error = importError(() => parseUpstreamJson(lit, '[{"osti_id": "9", "subjects": ["a", {"b": 1}]}]', 'subjects.json'));
    expect(error.message).toContain('field subjects: expected a list of strings, got an item an object');
  });

  it('refuses an unparseable or impossible date', () => {
    for (const bad of ['20/04/2024', '2024-02-30', '2024-04-20T25:00:00Z', 'yesterday']) {
      const text = JSON.stringify([{ osti_id: '3', publication_date: bad }]);
      const error = importError(() => parseUpstreamJson(lit, text, 'dates.json'));
      expect(error.message).toMatch(/^dates\.json, record 1 \(id 3\), field publication_date: .* is not an ISO 8601 date/);
    }
  });

  it('names the upstream field when a renamed field is wrong', () => {
    const error = importError(() => parseUpstreamJson(lit, '[{"osti_id": "4", "doe_contract_number": true}]', 'contract.json'));
    expect(error.message).toContain('field doe_contract_number (agency_contract_number): expected text, got boolean true');
  });

  it('refuses a bad dataset size and malformed links', () => {
    const size = importError(() => parseUpstreamJson(dc1, '[{"osti_id": "4", "dataset_size": "12 MB"}]', 'size.json'));
    expect(size.message).toContain('field dataset_size: expected a number');
    const links = importError(() => parseUpstreamJson(lit, '[{"osti_id": "4", "links": [{"rel": "citation"}]}]', 'links.json'));
    expect(links.message).toContain('field links: link 1 needs a rel and an href');
  });

  it('reports truncated XML with the position', () => {
    const text = readReal(litXml).slice(0, 5000);
    const error = importError(() => parseUpstreamXml(lit, text, litXml));
    expect(error.message).toMatch(/^lit-v1-datasets-xml-sample\.xml: invalid XML at line \d+, column \d+: /);
  });

  it('refuses XML with a different root', () => {
    const text = '<?xml version="1.0"?><error><statusCode>404</statusCode></error>';
    const error = importError(() => parseUpstreamXml(lit, text, 'error.xml'));
    expect(error.message).toBe('error.xml: expected a <records> root element, found <error>');
  });

  it('refuses a DOCTYPE instead of expanding its entities', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE records [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>
      <records><record><osti_id>1</osti_id><title>&b;</title></record></records>`;
    const error = importError(() => parseUpstreamXml(lit, bomb, 'bomb.xml'));
    expect(error.message).toBe('bomb.xml: DOCTYPE declarations are not accepted');
  });

  it('names record, id and element for a malformed XML record', () => {
    const text = oneRecordXml('<osti_id>8</osti_id><title>a</title><title>b</title>');
    const error = importError(() => parseUpstreamXml(lit, text, 'twice.xml'));
    expect(error.message).toBe('twice.xml, record 1 (id 8), field title: element <title> appears more than once');
  });
});
