import { searchColumns, type SearchColumn } from '../../deployments/schema';
import type { QueryNode } from '../query/ast';

/**
 * Text criteria compiled to FTS5, for the reference search that holds the engine to FTS5's
 * own matching and bm25() (engine.test.ts): the store itself keeps no FTS5 index. Each word or phrase becomes a quoted FTS5 string (with
 * `"` doubled), so user text never acts as FTS5 syntax. Boolean structure that FTS5 can
 * express (AND, OR, `x NOT y`) is merged into one MATCH expression; what it cannot — a
 * negation with nothing positive beside it, or OR over a negation — stays a predicate the
 * store evaluates with rowid sets.
 */
export type Predicate =
  | { readonly kind: 'match'; readonly expr: string }
  /** Published in these years (a year word of the main search), which FTS5 cannot say: the store's date column. */
  | { readonly kind: 'published'; readonly from: number; readonly to: number }
  | { readonly kind: 'not'; readonly child: Predicate }
  | { readonly kind: 'and' | 'or'; readonly children: readonly Predicate[] };

// FTS5 reads a string only up to a NUL ("unterminated string"), so NUL separates words like a space.
const quote = (text: string) => `"${text.replace(/\u0000/g, ' ').replace(/"/g, '""')}"`;

function columnFilter(columns: readonly SearchColumn[]): string {
  return columns.length === searchColumns.length ? '' : `{${columns.join(' ')}} : `;
}

function leaf(node: Extract<QueryNode, { type: 'term' | 'phrase' }>, columns: readonly SearchColumn[]): Predicate {
  const phrase = node.type === 'term' && node.prefix ? `${quote(node.text)}*` : quote(node.text);
  const match: Predicate = { kind: 'match', expr: columnFilter(columns) + phrase };
  const years = node.type === 'term' ? node.years : undefined;
  return years ? { kind: 'or', children: [match, { kind: 'published', ...years }] } : match;
}

const isMatch = (p: Predicate): p is Extract<Predicate, { kind: 'match' }> => p.kind === 'match';
const group = (p: Extract<Predicate, { kind: 'match' }>) => `(${p.expr})`;

/** AND of predicates: matches merge, `x NOT y` is formed where a positive match exists. */
export function and(children: readonly Predicate[]): Predicate | undefined {
  const matches = children.filter(isMatch);
  const negatedMatches = children.filter(
    (p): p is { kind: 'not'; child: Extract<Predicate, { kind: 'match' }> } => p.kind === 'not' && isMatch(p.child),
  );
  const rest = children.filter((p) => !isMatch(p) && !negatedMatches.includes(p as never));
  const parts: Predicate[] = [];
  if (matches.length > 0) {
    let expr = matches.map(group).join(' AND ');
    for (const negated of negatedMatches) expr = `(${expr}) NOT ${group(negated.child)}`;
    parts.push({ kind: 'match', expr });
  } else {
    parts.push(...negatedMatches);
  }
  parts.push(...rest);
  if (parts.length <= 1) return parts[0];
  return { kind: 'and', children: parts };
}

function or(children: readonly Predicate[]): Predicate | undefined {
  if (children.length <= 1) return children[0];
  if (children.every(isMatch)) return { kind: 'match', expr: children.map(group).join(' OR ') };
  return { kind: 'or', children };
}

export function compileQuery(node: QueryNode, columns: readonly SearchColumn[]): Predicate | undefined {
  switch (node.type) {
    case 'term':
    case 'phrase':
      return leaf(node, columns);
    case 'not': {
      const child = compileQuery(node.child, columns);
      return child && { kind: 'not', child };
    }
    case 'and':
      return and(node.children.map((child) => compileQuery(child, columns)).filter((p): p is Predicate => Boolean(p)));
    case 'or':
      return or(node.children.map((child) => compileQuery(child, columns)).filter((p): p is Predicate => Boolean(p)));
  }
}

/**
 * Splits a predicate into the MATCH that drives the query (and gives relevance) and the
 * rest, which becomes SQL conditions.
 */
export function drivingMatch(predicate: Predicate | undefined): { match?: string; rest: readonly Predicate[] } {
  if (!predicate) return { rest: [] };
  if (isMatch(predicate)) return { match: predicate.expr, rest: [] };
  if (predicate.kind === 'and') {
    const first = predicate.children.find(isMatch);
    if (first) return { match: first.expr, rest: predicate.children.filter((child) => child !== first) };
  }
  return { rest: [predicate] };
}
