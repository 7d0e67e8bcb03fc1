import { Parser } from 'htmlparser2';
import { escapeHtml, isHttpUrl } from './text';

/**
 * The text model of record fields. Real titles and descriptions carry HTML fragments and
 * entities (`Alfv&eacute;n`, `CO<sub>2</sub>`, `<ul><li>`); stored values keep them exactly
 * as imported, and wherever text is shown, cited, exported or indexed it goes through this
 * model: every entity decoded, an allow-list of markup kept as a small tree, everything else
 * text. htmlparser2 tokenizes with HTML's own rules (entities with and without `;`, implied
 * end tags, raw text in `<script>`), so what we keep is what a browser would have seen.
 */

/** Markup a careful reader keeps. */
export const richTags = ['sub', 'sup', 'i', 'em', 'b', 'strong', 'br', 'p', 'ul', 'ol', 'li', 'a'] as const;
export type RichTag = (typeof richTags)[number];

export interface RichElement {
  readonly tag: RichTag;
  /** Only on `a`, and only an http(s) URL; an `a` without one is not an element at all. */
  readonly href?: string;
  readonly children: readonly RichNode[];
}

export type RichNode = string | RichElement;

const allowed = new Set<string>(richTags);
/**
 * Elements nest at most this deep; deeper tags are dropped and their text kept where they
 * stand, so every walk of the tree (rendering is recursive) stays shallow, as a browser's
 * parser stops nesting at 512. A title of 3,000 nested `<i>` overflowed the stack.
 */
export const maxRichDepth = 100;
const voidTags = new Set<string>(['br']);
/** Tags that stand on lines of their own in plain text. */
const blockTags = new Set<RichTag>(['p', 'ul', 'ol', 'li']);

interface OpenElement {
  readonly tag: RichTag;
  readonly href?: string;
  readonly children: RichNode[];
}

function appendText(children: RichNode[], text: string) {
  if (!text) return;
  const last = children.length - 1;
  if (typeof children[last] === 'string') children[last] += text;
  else children.push(text);
}

/** Parses a field value into the tree; a value without `<` or `&` is its own only node. */
export function parseRichText(source: string): RichNode[] {
  if (!/[<&]/.test(source)) return source ? [source] : [];
  const root: OpenElement = { tag: 'p', children: [] };
  const stack: OpenElement[] = [root];
  const top = () => stack[stack.length - 1]!;
  /** Tags opened beyond the deepest level, still open: their end tags close nothing kept. */
  const dropped: string[] = [];
  // Tags we do not keep are shown as the text they were written as.
  const literal = (): void => appendText(top().children, source.slice(parser.startIndex, parser.endIndex + 1));

  const parser: Parser = new Parser(
    {
      ontext: (text) => appendText(top().children, text),
      onopentag(name, attributes, isImplied) {
        if (!allowed.has(name)) {
          if (!isImplied) literal();
          return;
        }
        const tag = name as RichTag;
        if (tag === 'a' && !isHttpUrl(attributes.href?.trim())) return;
        if (!voidTags.has(tag) && stack.length > maxRichDepth) {
          dropped.push(tag);
          return;
        }
        const element: OpenElement = { tag, children: [], ...(tag === 'a' ? { href: attributes.href!.trim() } : {}) };
        top().children.push(element);
        if (!voidTags.has(tag)) stack.push(element);
      },
      onclosetag(name, isImplied) {
        if (!allowed.has(name) || voidTags.has(name)) {
          if (!isImplied && !voidTags.has(name)) literal();
          return;
        }
        const droppedAt = dropped.lastIndexOf(name);
        if (droppedAt >= 0) {
          dropped.length = droppedAt;
          return;
        }
        const at = stack.findLastIndex((element, index) => index > 0 && element.tag === name);
        if (at > 0) stack.length = at;
      },
      oncomment: () => literal(),
      onprocessinginstruction: () => literal(),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.end(source);
  return root.children;
}

/**
 * One way of writing the tree out: plain text, HTML, LaTeX, React elements. `element` gets
 * its children already rendered.
 */
export interface RichRenderer<T> {
  text(text: string): T;
  element(element: RichElement, children: T[]): T;
}

export function renderRich<T>(nodes: readonly RichNode[], renderer: RichRenderer<T>): T[] {
  return nodes.map((node) =>
    typeof node === 'string' ? renderer.text(node) : renderer.element(node, renderRich(node.children, renderer)),
  );
}

const superscripts: Record<string, string> = Object.fromEntries(
  [...'0123456789+-=()n'].map((char, index) => [char, '⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ'[index]!]),
);
const subscripts: Record<string, string> = Object.fromEntries(
  [...'0123456789+-=()'].map((char, index) => [char, '₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎'[index]!]),
);

/** `10¹³`, `CO₂` where every character has a Unicode form; the characters as they are otherwise. */
function scriptChars(text: string, table: Record<string, string>): string {
  const chars = [...text.replace(/\u2212/g, '-')];
  return chars.every((char) => char in table) ? chars.map((char) => table[char]).join('') : text;
}

function plainRenderer(scripts: 'unicode' | 'inline'): RichRenderer<string> {
  return {
    text: (text) => text,
    element({ tag }, children) {
      const inner = children.join('');
      if (tag === 'br') return '\n';
      if (tag === 'li') return `\n• ${inner.trim()}`;
      if (blockTags.has(tag)) return `\n\n${inner.trim()}\n\n`;
      if (scripts === 'unicode' && tag === 'sup') return scriptChars(inner, superscripts);
      if (scripts === 'unicode' && tag === 'sub') return scriptChars(inner, subscripts);
      return inner;
    },
  };
}
const readerText = plainRenderer('unicode');
const indexText = plainRenderer('inline');

function plain(source: string, renderer: RichRenderer<string>): string {
  return renderRich(parseRichText(source), renderer)
    .join('')
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The text a reader sees, without markup: paragraphs and list items on lines of their own,
 * sub- and superscripts as Unicode characters where they all have one (`CO₂`, `10¹³`).
 * For plain citations, CSV and RIS.
 */
export function toPlainText(source: string): string {
  return plain(source, readerText);
}

/** Plain text on one line, white space collapsed: titles, document titles, names. */
export function toPlainLine(source: string): string {
  return toPlainText(source).replace(/\s+/g, ' ');
}

/**
 * The words a search sees: markup gone, sub- and superscripts inline, so `CO2` finds
 * `CO<sub>2</sub>` and no tag name is ever a word.
 */
export function toSearchText(source: string): string {
  return plain(source, indexText);
}

const htmlRenderer: RichRenderer<string> = {
  text: escapeHtml,
  element({ tag, href }, children) {
    if (tag === 'br') return '<br>';
    const open = tag === 'a' ? `<a href="${escapeHtml(href!)}">` : `<${tag}>`;
    return `${open}${children.join('')}</${tag}>`;
  },
};

/** Safe HTML of the allow-listed markup: every text escaped, only kept tags and http(s) hrefs. */
export function toHtml(source: string): string {
  return renderRich(parseRichText(source), htmlRenderer).join('');
}

/** The inline markup CSL-JSON's rich text knows (CSL 1.0.2, "HTML-like formatting tags"). */
const cslTags: Partial<Record<RichTag, string>> = { sub: 'sub', sup: 'sup', i: 'i', em: 'i', b: 'b', strong: 'b' };

const cslRenderer: RichRenderer<string> = {
  text: (text) => text,
  element({ tag }, children) {
    const inner = children.join('');
    const cslTag = cslTags[tag];
    if (cslTag) return `<${cslTag}>${inner}</${cslTag}>`;
    return tag === 'br' || blockTags.has(tag) ? ` ${inner} ` : inner;
  },
};

/**
 * A title for CSL-JSON: entities decoded, sub/superscripts and italics as CSL's rich-text
 * tags (which citeproc turns into HTML), links unwrapped, breaks and blocks as spaces;
 * markup outside the allow-list stays text, as everywhere else.
 */
export function toCslText(source: string): string {
  return (
    renderRich(parseRichText(source), cslRenderer)
      .join('')
      .replace(/\s+/g, ' ')
      .trim()
      // A TeX-style "--" between two words or numbers ("Fe XIII--XVI") is the en dash every style's guide prints.
      .replace(/(?<=[\p{L}\p{N}])--(?=[\p{L}\p{N}])/gu, '\u2013')
  );
}
