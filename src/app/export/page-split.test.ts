import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../client/errors';
import { recordsToBibtex } from '../../formats/bibtex';
import { splitBibtexPage, splitXmlPage } from './page-split';

describe('splitXmlPage', () => {
  it('separates the prologue from the records, keeping both byte for byte', () => {
    const page =
      '<?xml version="1.0" encoding="UTF-8"?>\n<records><record><title>A &lt;b&gt;</title></record>\n<record><links><link rel="citation" href="https://x.example/1"/></links></record></records>\n';
    expect(splitXmlPage(page, 'u')).toEqual({
      prologue: '<?xml version="1.0" encoding="UTF-8"?>\n<records>',
      records: [
        '<record><title>A &lt;b&gt;</title></record>',
        '<record><links><link rel="citation" href="https://x.example/1"/></links></record>',
      ],
    });
  });

  it('keeps a root with attributes, and reads an empty self-closing root', () => {
    expect(splitXmlPage('<records xmlns="urn:x" count="1"><record/></records>', 'u')).toEqual({
      prologue: '<records xmlns="urn:x" count="1">',
      records: ['<record/>'],
    });
    expect(splitXmlPage('<?xml version="1.0"?><records/>', 'u')).toEqual({ prologue: '<?xml version="1.0"?><records>', records: [] });
  });

  it('does not mistake <records> inside a record for a record', () => {
    const page = '<records><record><related_resource>x</related_resource><recordset>y</recordset></record></records>';
    expect(splitXmlPage(page, 'u').records).toEqual(['<record><related_resource>x</related_resource><recordset>y</recordset></record>']);
  });

  it('refuses what is not the spec’s XML', () => {
    expect(() => splitXmlPage('{"records": []}', 'u')).toThrow(InvalidResponseError);
    expect(() => splitXmlPage('<records><record>', 'u')).toThrow(/ends before/);
  });
});

describe('splitBibtexPage', () => {
  it('splits the server’s BibTeX into entries that join back into the same text', () => {
    const text = recordsToBibtex(
      [
        { repo_id: '1', title: 'First @ home' },
        { repo_id: '2', title: 'Second', authors: ['Doe, Jane'] },
      ],
      'OSTI',
    );
    const entries = splitBibtexPage(text);
    expect(entries).toHaveLength(2);
    expect(entries.join('\n')).toBe(text);
  });

  it('reads an empty page as no entries', () => {
    expect(splitBibtexPage('')).toEqual([]);
  });
});
