import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { readUpstreamFiles } from './files';
import { JsonRecordWatch, RecordTooLarge, XmlRecordWatch } from './record-size';

/** A record too large to take is refused by position and id as its text arrives; the others are delimited exactly. */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-record-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Feeds `text` in parts of `size` characters. */
function feedInParts(watch: { feed(text: string): void }, text: string, size: number): void {
  for (let at = 0; at < text.length; at += size) watch.feed(text.slice(at, at + size));
}

function refusal(run: () => void): RecordTooLarge {
  try {
    run();
  } catch (error) {
    if (error instanceof RecordTooLarge) return error;
    throw error;
  }
  throw new Error('no refusal');
}

describe('JSON records', () => {
  it('delimits every element of any array, however the text is cut (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), fc.integer({ min: 1, max: 50 }), fc.boolean(), (items, part, pretty) => {
        const text = pretty ? JSON.stringify(items, null, 2) : JSON.stringify(items);
        const watch = new JsonRecordWatch();
        feedInParts(watch, text, part);
        expect(watch.complete).toBe(true);
        expect(watch.spans.map(([start, end]) => JSON.parse(text.slice(start, end)))).toEqual(JSON.parse(text));
      }),
    );
  });

  it('is not complete for a truncated array, trailing text or a top-level object', () => {
    for (const text of ['[{"a":1}', '[{"a":1}] x', '[{"a":1}]]', '{"a":[1]}', '']) {
      const watch = new JsonRecordWatch();
      watch.feed(text);
      expect(watch.complete, text).toBe(false);
    }
  });

  it('refuses a record over the limit while it arrives, naming its position and id', () => {
    const watch = new JsonRecordWatch(1000);
    const error = refusal(() => {
      watch.feed('[{"osti_id":"1","title":"small"},{"osti_id": "77", "title":"');
      for (let i = 0; i < 10_000; i++) watch.feed('x'.repeat(100));
    });
    expect(error.position).toBe(2);
    expect(error.id).toBe('77');
    expect(error.size).toBeLessThan(1200);
    expect(error.message).toMatch(/^record 2 \(id 77\) is larger than/);
  });

  it('names a record whose id comes after its huge field as having no id yet', () => {
    const error = refusal(() => new JsonRecordWatch(1000).feed(`[{"title":"${'y'.repeat(100_000)}","osti_id":"9"}]`));
    expect(error.position).toBe(1);
    expect(error.id).toBeUndefined();
  });
});

describe('XML records', () => {
  it('refuses a record over the limit, naming its position and id', () => {
    const watch = new XmlRecordWatch(1000);
    const error = refusal(() => {
      watch.feed('<records><record><osti_id>1</osti_id></record><record><osti_id>55</osti_id><title>');
      for (let i = 0; i < 100; i++) watch.feed('z'.repeat(100));
    });
    expect(error.position).toBe(2);
    expect(error.id).toBe('55');
  });

  it('takes many small records cut anywhere, a record end split between parts included', () => {
    const text = `<records>${'<record><osti_id>1</osti_id><title>t</title></record>'.repeat(500)}</records>`;
    for (const part of [1, 7, 64, 4096]) expect(() => feedInParts(new XmlRecordWatch(200), text, part)).not.toThrow();
  });
});

describe('records import', () => {
  it('refuses a file with a record over 4 MB by file, position and id, before parsing it', () => {
    const path = join(dir, 'huge.json');
    writeFileSync(
      path,
      JSON.stringify([
        { osti_id: '1', title: 'fine' },
        { osti_id: '2024', title: 'x'.repeat(5 * 1024 * 1024) },
      ]),
    );
    expect(() => readUpstreamFiles(lit, [path])).toThrow(
      /huge\.json: record 2 \(id 2024\) is larger than 4\.0 MB .*records over 4\.0 MB are refused/,
    );
    const xml = join(dir, 'huge.xml');
    writeFileSync(xml, `<records><record><osti_id>3</osti_id><title>${'x'.repeat(5 * 1024 * 1024)}</title></record></records>`);
    expect(() => readUpstreamFiles(lit, [xml])).toThrow(/huge\.xml: record 1 \(id 3\) is larger than 4\.0 MB/);
  });
});
