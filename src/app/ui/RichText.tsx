import { createElement, Fragment, type ReactNode } from 'react';
import { markTree, snippetTree, type MarkedElement, type MarkedNode } from '../../formats/highlight';
import type { QueryTerm } from '../../formats/query-words';
import { storedText, type RecordText } from '../../formats/record-text';
import { parseRichText } from '../../formats/rich-text';

/**
 * A record field's text as the upstream meant it: entities decoded, the allow-listed markup
 * of the text model (sub, sup, italics, paragraphs, lists, http(s) links) as React elements,
 * everything else text, the search's matches in `<mark>`. Never innerHTML.
 */

type Render = (element: MarkedElement, children: ReactNode[]) => ReactNode;

const block: Render = ({ tag, href }, children) => {
  if (tag === 'br') return createElement('br');
  if (tag === 'a') return createElement('a', { href, rel: 'noopener noreferrer' }, ...children);
  return createElement(tag, null, ...children);
};

/** Inside a heading or a link only phrasing content is valid: blocks become text, links their text. */
const inline: Render = ({ tag }, children) => {
  if (tag === 'sub' || tag === 'sup' || tag === 'i' || tag === 'em' || tag === 'b' || tag === 'strong')
    return createElement(tag, null, ...children);
  return createElement(Fragment, null, ...children, ' ');
};

function render(nodes: readonly MarkedNode[], element: Render): ReactNode[] {
  return nodes.map((node, index) => {
    const rendered =
      typeof node === 'string'
        ? node
        : 'mark' in node
          ? createElement('mark', null, node.mark)
          : element(node, render(node.children, element));
    return createElement(Fragment, { key: index }, rendered);
  });
}

export interface RichTextProps {
  /** A record's text (or text that may hold a record's, such as a facet value or a criterion). */
  readonly text: RecordText | string;
  readonly inline?: boolean;
  /** The search's words, phrases and prefixes, marked where they match. */
  readonly terms?: readonly QueryTerm[];
  /** Only the passage around the first match (or the start), inline. */
  readonly snippet?: boolean;
}

export function RichText({ text, inline: isInline = false, terms = [], snippet = false }: RichTextProps) {
  const tree = parseRichText(storedText(text));
  const marked = snippet ? snippetTree(tree, terms) : terms.length > 0 ? markTree(tree, terms) : tree;
  const nodes = render(marked, isInline || snippet ? inline : block);
  // Text with markup lays out as HTML does (white space collapses, `<br>` breaks lines);
  // plain text keeps the line breaks it was written with.
  if (!isInline && !snippet && tree.some((node) => typeof node !== 'string'))
    return createElement('div', { className: 'rich-text' }, ...nodes);
  return createElement(Fragment, null, ...nodes);
}

/** Text already decoded for people (an author's name as parsed), the search's matches in `<mark>`; never read as markup again. */
export function MarkedLine({ text, terms = [] }: { readonly text: string; readonly terms?: readonly QueryTerm[] }) {
  if (terms.length === 0) return createElement(Fragment, null, text);
  return createElement(Fragment, null, ...render(markTree([text], terms), inline));
}
