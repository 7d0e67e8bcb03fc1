import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../deployments/registry';
import { recordToZoteroRdf } from './zotero-rdf';

const lit = deploymentByKey('LIT')!;
const description = (xml: string) =>
  (new XMLParser({ parseTagValue: false, ignoreAttributes: false }).parse(xml) as Record<string, Record<string, Record<string, unknown>>>)[
    'rdf:RDF'
  ]!['rdf:Description']!;

describe('Zotero RDF', () => {
  it('is well-formed whatever the record holds, markup and control characters included', () => {
    const xml = recordToZoteroRdf(
      lit,
      {
        repo_id: 'x"1',
        title: 'A <script>alert(1)</script> & "quoted" \u0001 title',
        authors: ["O'Brien, <b>Seán</b> & Co"],
        description: 'Ends in \uFFFF',
        product_type: 'Technical Report',
        report_number: 'R&D <1>',
        doi: '10.5555/a<b>',
      },
      false,
      'http://127.0.0.1:1',
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    const item = description(xml);
    expect(item['z:itemType']).toBe('report');
    expect(item['prism:number']).toBe('R&D <1>');
    expect(item['@_rdf:about']).toBe('http://127.0.0.1:1/lit/records/x%221');
  });

  it('keeps a journal article’s report number as an Extra line, never as its issue', () => {
    const item = description(
      recordToZoteroRdf(lit, {
        repo_id: '2',
        title: 'T',
        product_type: 'Journal Article',
        journal_name: 'J',
        journal_issue: '4',
        report_number: 'BNL-1',
      }),
    );
    expect(item['prism:number']).toBe('4');
    expect(item['dc:description']).toBe('Report Number: BNL-1');
  });
});
