import { describe, expect, test } from 'vitest';
import { markTree, snippetTree, type MarkedNode } from './highlight';
import { foldCases, foldRecords } from './fold-text.cases';
import { queryTerms } from './query-words';
import { parseRichText } from './rich-text';

/** The tree written back as HTML-ish text, marks as [[…]]. */
function show(nodes: readonly MarkedNode[]): string {
  return nodes
    .map((node) =>
      typeof node === 'string' ? node : 'mark' in node ? `[[${node.mark}]]` : `<${node.tag}>${show(node.children)}</${node.tag}>`,
    )
    .join('');
}

describe('markTree', () => {
  test('marks inside the markup and keeps it', () => {
    const tree = parseRichText('Capture of CO<sub>2</sub> in <i>deep saline</i> aquifers');
    expect(show(markTree(tree, queryTerms(['co2 "saline aquifer"'])))).toBe(
      'Capture of [[CO]]<sub>[[2]]</sub> in <i>deep [[saline]]</i>[[ aquifers]]',
    );
  });

  test('list items are separate words', () => {
    expect(show(markTree(parseRichText('<ul><li>wind</li><li>power</li></ul>'), queryTerms(['"windpower"'])))).not.toContain('[[');
  });
});

describe('snippetTree', () => {
  const long = `${'Filler words come first here. '.repeat(20)}The tokamak result is here. ${'More words after it follow. '.repeat(20)}`;

  test('shows the passage around the first match, marked, with ellipses', () => {
    const text = show(snippetTree(parseRichText(long), queryTerms(['tokamak'])));
    expect(text).toContain('[[tokamak]] result is here.');
    expect(text.startsWith('… ')).toBe(true);
    expect(text.endsWith(' …')).toBe(true);
    expect(text.length).toBeLessThan(300);
  });

  test('without a match, the start', () => {
    const text = show(snippetTree(parseRichText(long), queryTerms(['absent'])));
    expect(text.startsWith('Filler words')).toBe(true);
    expect(text.endsWith(' …')).toBe(true);
  });

  test('a short text whole', () => {
    expect(show(snippetTree(parseRichText('Short <b>bold</b> text'), queryTerms(['bold'])))).toBe('Short <b>[[bold]]</b> text');
  });
});

describe('highlights follow the folding (the stores’ cases, fold-text.cases.ts)', () => {
  // Names asked for by initials are found by the server; the highlighter marks their words as typed.
  const cases = foldCases.filter(({ param, value }) => !(param === 'author' && value.includes(',')));
  test.each(cases.map((fold) => [`${fold.param}=${fold.value}`, fold] as const))('%s', (_name, { param, value, found }) => {
    const terms = queryTerms([value]);
    for (const record of foldRecords) {
      const text =
        param === 'author' ? record.authors.join('; ') : param === 'title' ? record.title : `${record.title}; ${record.authors.join('; ')}`;
      const marked = show(markTree(parseRichText(text), terms)).includes('[[');
      expect(marked, `${record.id}: ${text}`).toBe(found.includes(record.id));
    }
  });
});
