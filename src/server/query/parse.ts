import { indexForm, isCjk, transliterate } from '../../formats/fold-text';
import { tokenizeQuery } from '../../formats/query-tokens';
import { yearRangeOf } from '../../formats/query-years';
import type { QueryNode } from './ast';

/**
 * The query language: words AND together; "quoted phrases"; OR, AND, NOT in capitals and
 * a leading `-` for negation; parentheses; a trailing `*` for a prefix.
 *
 * The parser is total: every input yields a tree (or nothing, for input with no words).
 * Unbalanced quotes and parentheses are closed, stray operators are dropped, nesting
 * deeper than `maxDepth` is flattened, and leaves carry plain text only — the store
 * quotes them, so no input reaches the index as raw syntax.
 */

/** Whether text has anything an index tokenizer would keep. */
const hasWordChars = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** A word or phrase as a leaf, as the indexes read its text: a CJK word is the phrase of its character pairs. */
function leaf(token: { kind: 'word' | 'phrase'; prefix?: boolean }, raw: string, years: boolean): QueryNode[] {
  const text = indexForm(raw).trim();
  if (!hasWordChars(text)) return [];
  if (token.kind === 'phrase' || (!token.prefix && isCjk(text) && /\s/.test(text))) return [{ type: 'phrase', text }];
  const range = years && !token.prefix ? yearRangeOf(raw) : undefined;
  return [{ type: 'term', text, prefix: token.prefix === true, ...(range ? { years: range } : {}) }];
}

const negate = (node: QueryNode): QueryNode => (node.type === 'not' ? node.child : { type: 'not', child: node });

function combine(type: 'and' | 'or', children: QueryNode[]): QueryNode | undefined {
  const flat = children.flatMap((child) => (child.type === type ? child.children : [child]));
  if (flat.length <= 1) return flat[0];
  return { type, children: flat };
}

export interface ParseOptions {
  readonly maxDepth?: number;
  /** A bare year word (`2016`, `2010-2015`) also matches records published then: the main search's reading. */
  readonly years?: boolean;
}

export function parseQuery(input: string, { maxDepth = 16, years = false }: ParseOptions = {}): QueryNode | undefined {
  const tokens = tokenizeQuery(input);
  let position = 0;
  let depth = 0;
  /** Groups opened past the depth limit: their parentheses are ignored, their words kept. */
  let ignoredGroups = 0;

  const peek = () => tokens[position];

  // or := and (OR and)*
  function parseOr(): QueryNode | undefined {
    const alternatives: QueryNode[] = [];
    const first = parseAnd();
    if (first) alternatives.push(first);
    while (peek()?.kind === 'or') {
      position++;
      const next = parseAnd();
      if (next) alternatives.push(next);
    }
    return combine('or', alternatives);
  }

  // and := unary ((AND)? unary)*  — stops at OR, at `)` inside a group, or at the end.
  function parseAnd(): QueryNode | undefined {
    const parts: QueryNode[] = [];
    for (;;) {
      const token = peek();
      if (!token || token.kind === 'or') break;
      if (token.kind === 'close') {
        if (ignoredGroups > 0) {
          ignoredGroups--;
          position++;
          continue;
        }
        if (depth > 0) break;
        position++; // an unmatched `)` is dropped
        continue;
      }
      if (token.kind === 'and') {
        position++;
        continue;
      }
      const node = parseUnary();
      if (node) parts.push(node);
    }
    return combine('and', parts);
  }

  // unary := NOT unary | primary ; a NOT with nothing after it is dropped.
  function parseUnary(): QueryNode | undefined {
    let negations = 0;
    while (peek()?.kind === 'not') {
      position++;
      negations++;
    }
    const token = peek();
    if (!token || token.kind === 'or' || token.kind === 'close' || token.kind === 'and') return undefined;
    const node = parsePrimary();
    return node && negations % 2 === 1 ? negate(node) : node;
  }

  function parsePrimary(): QueryNode | undefined {
    const token = tokens[position++]!;
    switch (token.kind) {
      case 'word':
      case 'phrase': {
        // Matched as the indexes read text (fold-text.ts); a word with an umlaut also as its transliteration.
        const node = combine(
          'or',
          [token.text, transliterate(token.text)].flatMap((text) => (text === undefined ? [] : leaf(token, text, years))),
        );
        return node && token.negated ? negate(node) : node;
      }
      case 'open': {
        if (depth >= maxDepth) {
          ignoredGroups++;
          return undefined;
        }
        depth++;
        const inner = parseOr();
        depth--;
        if (peek()?.kind === 'close') position++; // an unclosed group closes at the end
        return inner && token.negated ? negate(inner) : inner;
      }
      default:
        return undefined;
    }
  }

  return parseOr();
}

/** Number of words and phrases in a tree, for limiting query cost. */
export function leafCount(node: QueryNode | undefined): number {
  if (!node) return 0;
  switch (node.type) {
    case 'term':
    case 'phrase':
      return 1;
    case 'not':
      return leafCount(node.child);
    default:
      return node.children.reduce((sum, child) => sum + leafCount(child), 0);
  }
}
