import type { QueryNode } from '../../query/ast';

/**
 * The query language's tree as `to_tsquery` input. Every word and phrase is a quoted
 * string (`'` and `\` escaped), so user text is never tsquery syntax; `to_tsquery` then
 * stems and folds each one with the store's text configuration, and turns a quoted string
 * of several words into a phrase (`<->`).
 */

/** `clean` makes a word storable (PostgreSQL text cannot hold NUL). */
export function toTsquery(node: QueryNode, clean: (text: string) => string = (text) => text): string {
  const quote = (text: string) => `'${clean(text).replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  const compile = (n: QueryNode): string => {
    switch (n.type) {
      case 'term':
        return n.prefix ? `${quote(n.text)}:*` : quote(n.text);
      case 'phrase':
        return quote(n.text);
      case 'and':
        return `(${n.children.map(compile).join(' & ')})`;
      case 'or':
        return `(${n.children.map(compile).join(' | ')})`;
      case 'not':
        return `!${compile(n.child)}`;
    }
  };
  return compile(node);
}

/** Whether a record can match without containing any word of the query (it is purely negative). */
export function hasPositive(node: QueryNode): boolean {
  if (node.type === 'not') return false;
  if (node.type === 'and') return node.children.some(hasPositive);
  if (node.type === 'or') return node.children.every(hasPositive);
  return true;
}
