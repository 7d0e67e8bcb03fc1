import { escapeHtml, isHttpUrl } from '../../formats/text';

/**
 * citeproc's HTML output, reduced to the markup a citation needs and nothing else. The
 * record text inside a citation comes from whichever server the app talks to, so the
 * engine's HTML is never inserted as HTML: it is read into this small tree (allowed tags,
 * `csl-*` classes, http(s) links) and rendered as React elements, or re-serialised with
 * every text escaped for the clipboard.
 */

export const allowedTags = ['div', 'span', 'i', 'b', 'em', 'strong', 'sup', 'sub', 'a'] as const;
export type AllowedTag = (typeof allowedTags)[number];

export interface CitationElement {
  readonly tag: AllowedTag;
  readonly className?: string;
  readonly href?: string;
  readonly children: readonly CitationNode[];
}
export type CitationNode = string | CitationElement;

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00A0' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\uFFFD';
    }
    return namedEntities[body] ?? whole;
  });
}

/** Inline styles citeproc writes, as classes (the CSP allows no inline style). */
const styleClasses: readonly (readonly [RegExp, string])[] = [
  [/font-variant\s*:\s*small-caps/i, 'csl-small-caps'],
  [/font-style\s*:\s*italic/i, 'csl-italic'],
  [/font-style\s*:\s*normal/i, 'csl-roman'],
  [/font-weight\s*:\s*bold/i, 'csl-bold'],
  [/font-weight\s*:\s*normal/i, 'csl-normal-weight'],
  [/text-decoration\s*:\s*underline/i, 'csl-underline'],
  [/vertical-align\s*:\s*super/i, 'csl-superscript'],
];

function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(/([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g)) {
    const name = match[1]!.toLowerCase();
    if (!attributes.has(name)) attributes.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return attributes;
}

function elementOf(tag: AllowedTag, attributeSource: string, children: CitationNode[]): CitationElement {
  const attributes = parseAttributes(attributeSource);
  const classes = (attributes.get('class') ?? '').split(/\s+/).filter((name) => /^csl-[a-z-]+$/.test(name));
  const style = attributes.get('style') ?? '';
  for (const [pattern, name] of styleClasses) if (pattern.test(style)) classes.push(name);
  const href = tag === 'a' ? attributes.get('href')?.trim() : undefined;
  return {
    tag,
    ...(classes.length ? { className: [...new Set(classes)].join(' ') } : {}),
    ...(href && isHttpUrl(href) ? { href } : {}),
    children,
  };
}

const isAllowed = (name: string): name is AllowedTag => (allowedTags as readonly string[]).includes(name);

/** Elements whose content is never text of a citation. */
const droppedWithContent = new Set(['script', 'style', 'template', 'iframe', 'object', 'noscript', 'textarea', 'title']);

interface OpenElement {
  readonly name: string;
  readonly attributes: string;
  readonly children: CitationNode[];
}

/**
 * Reads HTML into citation nodes. Unknown elements are unwrapped (their text kept),
 * script-like ones dropped with their content, comments dropped, stray `<` kept as text,
 * unclosed elements closed at the end. Never throws.
 */
export function parseCitationHtml(html: string): CitationNode[] {
  const root: OpenElement = { name: '#root', attributes: '', children: [] };
  const stack: OpenElement[] = [root];
  let dropping: string | undefined;
  const top = () => stack[stack.length - 1]!;
  const addText = (text: string) => {
    if (dropping || !text) return;
    const children = top().children;
    const last = children[children.length - 1];
    if (typeof last === 'string') children[children.length - 1] = last + text;
    else children.push(text);
  };
  const close = (element: OpenElement) => {
    const parent = top();
    if (isAllowed(element.name)) parent.children.push(elementOf(element.name, element.attributes, element.children));
    else {
      for (const child of element.children) {
        if (typeof child === 'string') addText(child);
        else parent.children.push(child);
      }
    }
  };

  const token = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|[^<]+|</g;
  for (const match of html.matchAll(token)) {
    const [whole, slash, rawName, rawAttributes] = match;
    if (whole.startsWith('<!--')) continue;
    if (rawName === undefined) {
      // citeproc indents its block layout; line breaks with indentation are not citation text.
      if (!/^\s*\n\s*$/.test(whole)) addText(decodeEntities(whole));
      continue;
    }
    const name = rawName.toLowerCase();
    if (dropping) {
      if (slash && name === dropping) dropping = undefined;
      continue;
    }
    if (droppedWithContent.has(name)) {
      if (!slash && !/\/\s*$/.test(rawAttributes ?? '')) dropping = name;
      continue;
    }
    if (slash) {
      const index = stack.findLastIndex((element) => element.name === name);
      if (index <= 0) continue;
      while (stack.length > index) close(stack.pop()!);
      continue;
    }
    const attributes = rawAttributes ?? '';
    const element: OpenElement = { name, attributes: attributes.replace(/\/\s*$/, ''), children: [] };
    if (/\/\s*$/.test(attributes) || name === 'br' || name === 'hr' || name === 'img' || name === 'wbr') {
      if (name === 'br') addText(' ');
      else if (isAllowed(name)) top().children.push(elementOf(name, element.attributes, []));
      continue;
    }
    stack.push(element);
  }
  while (stack.length > 1) close(stack.pop()!);
  return root.children;
}

/** All text of some nodes, as a screen reader or a plain-text paste would read it. */
export function nodesToText(nodes: readonly CitationNode[]): string {
  return nodes.map((node) => (typeof node === 'string' ? node : nodesToText(node.children))).join('');
}

/**
 * Nodes as HTML for the clipboard. `inline` turns blocks into spans so that a citation
 * fits in one paragraph (a <div> cannot sit inside a <p>), keeping the space after a
 * citation number that citeproc's block layout would otherwise provide.
 */
export function nodesToHtml(nodes: readonly CitationNode[], options: { inline?: boolean } = {}): string {
  return nodes
    .map((node) => {
      if (typeof node === 'string') return escapeHtml(node);
      const tag = options.inline && node.tag === 'div' ? 'span' : node.tag;
      const attributes =
        (node.className ? ` class="${escapeHtml(node.className)}"` : '') + (node.href ? ` href="${escapeHtml(node.href)}"` : '');
      const gap = options.inline && node.className?.split(' ').includes('csl-left-margin') ? ' ' : '';
      return `<${tag}${attributes}>${nodesToHtml(node.children, options)}</${tag}>${gap}`;
    })
    .join('');
}
