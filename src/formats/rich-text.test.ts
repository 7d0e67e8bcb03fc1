import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { maxRichDepth, parseRichText, richTags, toHtml, toPlainLine, toPlainText, toSearchText, type RichNode } from './rich-text';

const realDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../data/real');

/** Every string value of every shipped real JSON record, with where it came from. */
function realStrings(): { where: string; value: string }[] {
  const out: { where: string; value: string }[] = [];
  for (const file of readdirSync(realDir).filter((name) => name.endsWith('.json'))) {
    const records = JSON.parse(readFileSync(join(realDir, file), 'utf8')) as Record<string, unknown>[];
    for (const record of records) {
      const visit = (value: unknown, path: string) => {
        if (typeof value === 'string') out.push({ where: `${file} ${record.osti_id} ${path}`, value });
        else if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${path}[${index}]`));
      };
      for (const [field, value] of Object.entries(record)) visit(value, field);
    }
  }
  return out;
}

function tagsIn(nodes: readonly RichNode[], into = new Set<string>()): Set<string> {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    into.add(node.tag);
    tagsIn(node.children, into);
  }
  return into;
}

const recordText = (file: string, id: string, field: string) => {
  const records = JSON.parse(readFileSync(join(realDir, file), 'utf8')) as Record<string, string>[];
  return records.find((record) => String(record.osti_id) === id)![field]!;
};

describe('the text model on every real record', () => {
  const strings = realStrings();
  const keptTag = new RegExp(`</?(${richTags.join('|')})\\b[^>]*>`, 'i');
  const entity = /&(#\d+|#x[\da-f]+|[a-z][a-z\d]*);/i;

  it('has real records to read', () => {
    expect(strings.length).toBeGreaterThan(10_000);
  });

  it('leaves no kept tag and no entity in plain text or search text', () => {
    for (const { where, value } of strings) {
      for (const plain of [toPlainText(value), toSearchText(value)]) {
        expect(plain, where).not.toMatch(keptTag);
        expect(plain, where).not.toMatch(entity);
      }
    }
  });

  it('keeps the markup the real files contain as elements', () => {
    const found = new Set<string>();
    for (const { value } of strings) tagsIn(parseRichText(value), found);
    expect([...found].sort()).toEqual(['a', 'br', 'li', 'p', 'sup', 'ul']);
  });

  it('keeps text that only looks like a tag, as the upstream wrote it', () => {
    const description = recordText('dc-v1-plasma-lab-209.json', '1562022', 'description');
    expect(toPlainText(description)).toContain('rotation above <fh> = 20 Hz');
    expect(toHtml(description)).toContain('&lt;fh&gt;');
  });

  it('reads DC1 1562055, DC1 1562038 and LIT 1864845 as the upstream meant them', () => {
    expect(toPlainLine(recordText('dc-v1-plasma-lab-209.json', '1562055', 'title'))).toContain('Alfvén');
    expect(tagsIn(parseRichText(recordText('dc-v1-plasma-lab-209.json', '1562038', 'description')))).toContain('sup');
    const lit = parseRichText(recordText('lit-v1-datasets-40.json', '1864845', 'description'));
    expect(tagsIn(lit)).toEqual(new Set(['br', 'ul', 'li']));
    expect(toPlainText(recordText('lit-v1-datasets-40.json', '1864845', 'description'))).toMatch(/\n• \S/);
  });
});

describe('the text model', () => {
  it('decodes named, decimal and hex entities, with and without the semicolon', () => {
    expect(toPlainText('Alfv&eacute;n &#233;t&#xE9; &NestedLessLess; caf&eacute AT&amp;T')).toBe('Alfvén été ≪ café AT&T');
  });

  it('decodes once: an escaped entity stays an entity in the text', () => {
    expect(toPlainText('&amp;lt;sub&amp;gt;')).toBe('&lt;sub&gt;');
  });

  it('turns sub- and superscripts into Unicode for readers and keeps them inline for search', () => {
    const title = '10<sup>13</sup> cm<sup>&minus;3</sup> CO<sub>2</sub> and T<sub>eff</sub>';
    expect(toPlainText(title)).toBe('10¹³ cm⁻³ CO₂ and Teff');
    expect(toSearchText(title)).toBe('1013 cm−3 CO2 and Teff');
  });

  it('puts paragraphs, breaks and list items on lines of their own', () => {
    expect(toPlainText('<p>One.</p><p>Two<br>three</p><ol><li>a</li><li>b</li></ol>end')).toBe('One.\n\nTwo\nthree\n\n• a\n• b\n\nend');
    expect(toPlainLine('<p>One.</p>\n<p>Two</p>')).toBe('One. Two');
  });

  it('keeps hostile markup inert: attributes dropped, non-http links not links, unknown tags text', () => {
    expect(parseRichText('<sub onmouseover="alert(1)">x</sub>')).toEqual([{ tag: 'sub', children: ['x'] }]);
    expect(parseRichText('<a href="javascript:alert(1)">click</a>')).toEqual(['click']);
    expect(parseRichText('<a href=" https://example.org/a ">ok</a>')).toEqual([
      { tag: 'a', href: 'https://example.org/a', children: ['ok'] },
    ]);
    expect(toHtml('<script>alert("x")</script><img src=x onerror=alert(1)>')).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;',
    );
  });

  it('closes nested and unclosed tags the way a browser would', () => {
    expect(toHtml('<b><i>nested</b> open <sup>2')).toBe('<b><i>nested</i></b> open <sup>2</sup>');
    expect(toHtml('stray </sub> close')).toBe('stray  close');
  });

  it('leaves comparison signs in prose alone', () => {
    expect(toPlainText('p<0.05 and a < b')).toBe('p<0.05 and a < b');
  });

  it('nests no deeper than its limit, keeping the text and the markup around it', () => {
    const deep = `<b>${'<i>'.repeat(3000)}deep${'</i>'.repeat(3000)} after</b> outside`;
    const elementIn = (nodes: readonly RichNode[]) => nodes.find((node) => typeof node !== 'string');
    let depth = 0;
    for (let element = elementIn(parseRichText(deep)); element; element = elementIn(element.children)) depth++;
    expect(depth).toBe(maxRichDepth);
    expect(toHtml(deep)).toMatch(/deep<\/i>(<\/i>)* after<\/b> outside$/);
    expect(toSearchText(deep)).toBe('deep after outside');
  });
});
