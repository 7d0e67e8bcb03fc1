import { createElement, Fragment, type ReactNode } from 'react';
import { parseRichText, renderRich, type RichRenderer } from '../../formats/rich-text';

/**
 * A record field's text as the upstream meant it: entities decoded, the allow-listed markup
 * of the text model (sub, sup, italics, paragraphs, lists, http(s) links) as React elements,
 * everything else text. Never innerHTML.
 */

const blockRenderer: RichRenderer<ReactNode> = {
  text: (text) => text,
  element({ tag, href }, children) {
    if (tag === 'br') return createElement('br');
    if (tag === 'a') return createElement('a', { href, rel: 'noopener noreferrer' }, ...children);
    return createElement(tag, null, ...children);
  },
};

/** Inside a heading or a link only phrasing content is valid: blocks become text, links their text. */
const inlineRenderer: RichRenderer<ReactNode> = {
  text: (text) => text,
  element({ tag }, children) {
    if (tag === 'sub' || tag === 'sup' || tag === 'i' || tag === 'em' || tag === 'b' || tag === 'strong') return createElement(tag, null, ...children);
    return createElement(Fragment, null, ...children, ' ');
  },
};

export function RichText({ text, inline = false }: { text: string; inline?: boolean }) {
  const nodes = renderRich(parseRichText(text), inline ? inlineRenderer : blockRenderer);
  return createElement(Fragment, null, ...nodes.map((node, index) => createElement(Fragment, { key: index }, node)));
}
