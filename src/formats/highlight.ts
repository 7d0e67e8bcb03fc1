import { matchRanges, type QueryTerm } from './query-words';
import type { RichElement, RichNode, RichTag } from './rich-text';

/**
 * Highlighting on the text model's tree: matches are found in the text a reader sees (across
 * markup, so `CO<sub>2</sub>` is one word) and marked inside the text nodes, so the markup
 * stays as it was.
 */

/** Matched text. Marks hold text only: a match across markup becomes one mark per text node. */
export interface Mark {
  readonly mark: string;
}
export interface MarkedElement {
  readonly tag: RichTag;
  readonly href?: string;
  readonly children: readonly MarkedNode[];
}
export type MarkedNode = string | Mark | MarkedElement;

/** Tags that separate words even where the source has no space (`<li>a</li><li>b</li>`). */
const breaking = new Set<RichTag>(['br', 'p', 'ul', 'ol', 'li']);

/** The reader's text, a line break wherever a block or `<br>` separates words, and where each text node starts in it. */
function flatten(nodes: readonly RichNode[]): { text: string; starts: number[] } {
  let text = '';
  const starts: number[] = [];
  const walk = (list: readonly RichNode[]) => {
    for (const node of list) {
      if (typeof node === 'string') {
        starts.push(text.length);
        text += node;
      } else {
        if (breaking.has(node.tag)) text += '\n';
        walk(node.children);
        if (breaking.has(node.tag)) text += '\n';
      }
    }
  };
  walk(nodes);
  return { text, starts };
}

/** Splits each text node at the ranges (offsets into the flattened text) and marks the inside. */
function applyRanges(nodes: readonly RichNode[], starts: readonly number[], ranges: readonly (readonly [number, number])[]): MarkedNode[] {
  let textIndex = 0;
  const mark = (text: string, start: number): MarkedNode[] => {
    const out: MarkedNode[] = [];
    let at = 0;
    for (const [from, to] of ranges) {
      const a = Math.max(from - start, at);
      const b = Math.min(to - start, text.length);
      if (b <= a) continue;
      if (a > at) out.push(text.slice(at, a));
      out.push({ mark: text.slice(a, b) });
      at = b;
    }
    if (at < text.length) out.push(text.slice(at));
    return out;
  };
  const walk = (list: readonly RichNode[]): MarkedNode[] =>
    list.flatMap((node): MarkedNode[] => {
      if (typeof node === 'string') return mark(node, starts[textIndex++]!);
      return [{ ...node, children: walk(node.children) } satisfies MarkedElement];
    });
  return walk(nodes);
}

/** The tree with every match of the terms marked. */
export function markTree(nodes: readonly RichNode[], terms: readonly QueryTerm[]): MarkedNode[] {
  const { text, starts } = flatten(nodes);
  return applyRanges(nodes, starts, matchRanges(text, terms));
}

/** Keeps the part of the tree between two offsets of its flattened text (elements around it stay). */
function sliceTree(nodes: readonly RichNode[], starts: readonly number[], from: number, to: number): RichNode[] {
  let textIndex = 0;
  const walk = (list: readonly RichNode[]): RichNode[] =>
    list.flatMap((node): RichNode[] => {
      if (typeof node === 'string') {
        const start = starts[textIndex++]!;
        const part = node.slice(Math.max(0, from - start), Math.max(0, to - start));
        return part ? [part] : [];
      }
      const children = walk(node.children);
      // A `<br>` stays: it is what separates the words around it.
      return children.length > 0 || node.tag === 'br' ? [{ ...node, children } satisfies RichElement] : [];
    });
  return walk(nodes);
}

/**
 * A passage of about `maxLength` characters of a long text: around the first match where
 * there is one (so a result shows why it matched), else the start; cut at word boundaries,
 * with "…" where text was left out, matches marked.
 */
export function snippetTree(nodes: readonly RichNode[], terms: readonly QueryTerm[], maxLength = 280): MarkedNode[] {
  const { text, starts } = flatten(nodes);
  const ranges = matchRanges(text, terms);
  let from = 0;
  let to = text.length;
  if (text.length > maxLength) {
    const first = ranges[0];
    // Some words before the match give it context.
    from = first ? Math.max(0, Math.min(first[0] - Math.floor(maxLength / 4), text.length - maxLength)) : 0;
    to = from + maxLength;
    if (from > 0) {
      const space = text.slice(from, from + 40).search(/\s/);
      if (space >= 0) from += space + 1;
    }
    if (to < text.length) {
      const space = text.slice(to - 40, to).search(/\s\S*$/);
      if (space >= 0) to = to - 40 + space;
    }
  }
  const sliced = from === 0 && to === text.length ? nodes : sliceTree(nodes, starts, from, to);
  const marked = markTree(sliced, terms);
  return [...(from > 0 ? ['… '] : []), ...marked, ...(to < text.length ? [' …'] : [])];
}
