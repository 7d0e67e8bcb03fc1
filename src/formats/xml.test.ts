import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { deploymentByKey, deployments, type ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { stripInvalidXmlChars } from './text';
import { recordsToXml, recordToXml } from './xml';

/** Parses as a client would: attributes kept, text untouched (no trimming, no number guessing). */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Repeated children always as arrays, so one-item lists read like longer ones.
  isArray: (_name, jpath) => String(jpath).split('.').length === 4,
});

type XmlNode = Record<string, any>;

function parseRecords(xml: string): XmlNode[] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = parser.parse(xml) as { records: '' | { record: XmlNode | XmlNode[] } };
  if (parsed.records === '') return [];
  const record = parsed.records.record;
  return Array.isArray(record) ? record : [record];
}

function must(key: string): Deployment {
  const deployment = deploymentByKey(key);
  if (!deployment) throw new Error(key);
  return deployment;
}

const dc1 = must('DC1');

describe('recordsToXml', () => {
  it('wraps records in a records root with one record element each', () => {
    const xml = recordsToXml(dc1, [
      { repo_id: '1', title: 'One' },
      { repo_id: '2', title: 'Two' },
    ]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(parseRecords(xml).map((record) => [record.repo_id, record.title])).toEqual([
      ['1', 'One'],
      ['2', 'Two'],
    ]);
  });

  it('writes a valid empty document for no records', () => {
    const xml = recordsToXml(dc1, []);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parseRecords(xml)).toEqual([]);
  });

  it('puts list fields in a plural container of singular children', () => {
    const lit = must('LIT');
    const [record] = parseRecords(
      recordsToXml(lit, [
        {
          repo_id: '5',
          authors: ['Smith, J.', 'Doe, J.'],
          subjects: ['energy'],
          research_orgs: ['PPPL', 'ORNL'],
          sponsor_orgs: ['USDOE'],
        },
      ]),
    );
    expect(record!.authors).toEqual({ author: ['Smith, J.', 'Doe, J.'] });
    expect(record!.subjects).toEqual({ subject: ['energy'] });
    expect(record!.research_orgs).toEqual({ research_org: ['PPPL', 'ORNL'] });
    expect(record!.sponsor_orgs).toEqual({ sponsor_org: ['USDOE'] });
  });

  it('writes MM’s contributing_orgs as contributing_org children', () => {
    const [record] = parseRecords(recordsToXml(must('MM'), [{ repo_id: '5', contributing_orgs: ['MIT', 'GA'] }]));
    expect(record!.contributing_orgs).toEqual({ contributing_org: ['MIT', 'GA'] });
  });

  it('writes links as link elements with rel and href attributes', () => {
    const links = [
      { rel: 'citation', href: 'https://www.osti.gov/biblio/5' },
      { rel: 'fulltext', href: 'https://www.osti.gov/servlets/purl/5?a=1&b=2' },
    ];
    const xml = recordToXml(dc1, { repo_id: '5', links });
    expect(xml).toContain('<links><link rel="citation" href="https://www.osti.gov/biblio/5"/>');
    const [record] = parseRecords(recordsToXml(dc1, [{ repo_id: '5', links }]));
    expect(record!.links).toEqual({ link: links });
  });

  it('writes DC1’s contributor_org as a contributing_org element', () => {
    const xml = recordToXml(dc1, { repo_id: '5', contributor_org: 'Energy and Geoscience Institute' });
    expect(xml).not.toContain('contributor_org');
    const [record] = parseRecords(recordsToXml(dc1, [{ repo_id: '5', contributor_org: 'Energy and Geoscience Institute' }]));
    expect(record!.contributing_org).toBe('Energy and Geoscience Institute');
  });

  it.each([
    ['&', '&amp;'],
    ['<', '&lt;'],
    ['>', '&gt;'],
    ['"', '&quot;'],
    ["'", '&apos;'],
  ])('escapes %s in text and attributes', (char, entity) => {
    const text = `a${char}b`;
    const xml = recordToXml(dc1, { repo_id: '5', title: text, links: [{ rel: 'citation', href: `https://x.org/?q=${char}` }] });
    expect(xml).toContain(`<title>a${entity}b</title>`);
    expect(xml).toContain(`href="https://x.org/?q=${entity}"`);
    const [record] = parseRecords(recordsToXml(dc1, [{ repo_id: '5', title: text }]));
    expect(record!.title).toBe(text);
  });

  it('keeps markup in record text as text, never as elements', () => {
    const title = '<b>bold</b> &amp; <![CDATA[x]]> <!-- c --> ]]>';
    const [record] = parseRecords(recordsToXml(dc1, [{ repo_id: '5', title }]));
    expect(record!.title).toBe(title);
  });

  it('writes numbers, and empty elements for empty values', () => {
    const xml = recordToXml(dc1, { repo_id: '5', dataset_size: 0, title: '', authors: [], doi: null, links: [] });
    expect(xml).toContain('<dataset_size>0</dataset_size>');
    expect(xml).toContain('<title/>');
    expect(xml).toContain('<authors/>');
    expect(xml).toContain('<doi/>');
    expect(xml).toContain('<links/>');
  });

  it('writes each deployment’s fields, and only those, in table order', () => {
    for (const deployment of deployments) {
      const record: ApiRecord = { repo_id: '1', not_a_field: 'dropped' };
      const names = [...recordToXml(deployment, record).matchAll(/<([a-z_]+)\/?>/g)].map((match) => match[1]);
      const expected = deployment.fields.map((field) => field.xml ?? field.name);
      expect(
        names.filter((name) => name !== 'record'),
        deployment.key,
      ).toEqual(expected);
    }
  });
});

describe('recordsToXml with arbitrary text (property)', () => {
  /** Any UTF-16 code unit, lone surrogates and C0 controls included. */
  const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
  const hostile = fc.string({
    unit: fc.oneof(
      anyUnit,
      fc.constantFrom('&', '<', '>', '"', "'", ']]>', '<!--', '\u0000', '\u0008', '\uFFFE', '\uFFFF', '\uD800', '\uDFFF', '😀', '\r\n'),
      fc.string({ unit: 'binary', maxLength: 1 }),
    ),
    maxLength: 40,
  });
  /** What an XML 1.0 reader can get back: invalid characters removed, line ends normalised. */
  const readable = (text: string) => stripInvalidXmlChars(text).replace(/\r\n?/g, '\n');
  const lineEnds = (text: string) => text.replace(/\r\n?/g, '\n');
  /** XML 1.0 §2.2 Char; fast-xml-parser's validator does not check it, so we do. */
  const xmlChars = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

  it.each(deployments.map((deployment) => [deployment.key, deployment] as const))(
    '%s: output is well-formed and text reads back',
    (_key, deployment) => {
      fc.assert(
        fc.property(fc.array(hostile, { minLength: 1, maxLength: 3 }), hostile, hostile, (authors, title, href) => {
          const record: ApiRecord = { repo_id: 'id-1', title, description: title, authors, links: [{ rel: 'citation', href }] };
          const xml = recordsToXml(deployment, [record]);
          expect(xml).toMatch(xmlChars);
          // No raw "<" in attribute values either (well-formedness the validator lets through).
          expect(xml).not.toMatch(/="[^"]*</);
          const [parsed] = parseRecords(xml);
          const asText = (value: unknown) => (value === undefined ? '' : lineEnds(String(value)));
          expect(asText(parsed!.title)).toBe(readable(title));
          expect((parsed!.authors?.author ?? []).map(asText)).toEqual(authors.map(readable));
          if (deployment.linkRels.length > 0) expect(asText(parsed!.links.link[0].href)).toBe(readable(href));
        }),
        { numRuns: 60 },
      );
    },
  );
});
