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
  const tree = parseRichText(text);
  const nodes = renderRich(tree, inline ? inlineRenderer : blockRenderer).map((node, index) => createElement(Fragment, { key: index }, node));
  // Text with markup lays out as HTML does (white space collapses, `<br>` breaks lines);
  // plain text keeps the line breaks it was written with.
  if (!inline && tree.some((node) => typeof node !== 'string')) return createElement('div', { className: 'rich-text' }, ...nodes);
  return createElement(Fragment, null, ...nodes);
}
