import { indexWords } from '../../../formats/query-words';
import type { QueryNode } from '../../query/ast';

/**
 * The query language's tree as `to_tsquery` input. Every word is a quoted string (`'` and
 * `\` escaped), so user text is never tsquery syntax; `to_tsquery` then stems and folds
 * each one with the store's text configuration.
 */

/** `clean` makes a word storable (PostgreSQL text cannot hold NUL). */
export function toTsquery(node: QueryNode, clean: (text: string) => string = (text) => text): string {
  const quote = (text: string) => `'${clean(text).replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  const star = (prefix: boolean) => (prefix ? ':*' : '');
  // PostgreSQL's parser keeps `molten-sa` whole and asks for the hyphenated compound, which
  // `molten salt` lacks, while the SQLite store reads it as the phrase `molten sa…`. Both
  // readings, then: the compound alone still finds what only PostgreSQL splits its own way
  // (an ORCID's digit groups).
  const phrase = (text: string, prefix: boolean) => {
    const words = indexWords(text).map(quote);
    const whole = `${quote(text)}${star(prefix)}`;
    if (words.length < 2) return whole;
    return `(${whole} | ${words.join(' <-> ')}${star(prefix)})`;
  };
  const compile = (n: QueryNode): string => {
    switch (n.type) {
      case 'term':
        return phrase(n.text, n.prefix);
      case 'phrase':
        return phrase(n.text, false);
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

/**
 * SQL for a tsquery that every record matching `node` matches too, or undefined: each word
 * and phrase loosened to all of its lexemes, as PostgreSQL's parser makes them of the text
 * and as the SQLite store's words, ANDed; negations and prefixes dropped from an AND. GIN
 * answers that from the index alone, where a phrase must be rechecked against each row's
 * vector, and the whole record's vector is the row's largest value, stored compressed
 * apart. The exact query is then tested on a parameter's own, small, vectors.
 * `param` adds a parameter and names it.
 */
export function looseTsquerySql(node: QueryNode, config: string, param: (text: string) => string): string | undefined {
  // Built as renderers, so that no parameter is added for a part that turns out unbounded.
  type Render = () => string;
  const lexemes = (text: string) => `plainto_tsquery('${config}', ${param(text)})`;
  const words = (text: string): Render => {
    const parts = indexWords(text);
    return parts.length < 2 ? () => lexemes(text) : () => `(${lexemes(text)} || ${lexemes(parts.join(' '))})`;
  };
  const loose = (n: QueryNode): Render | undefined => {
    switch (n.type) {
      case 'term':
        return n.prefix ? undefined : words(n.text);
      case 'phrase':
        return words(n.text);
      case 'and': {
        const bounded = n.children.map(loose).filter((child) => child !== undefined);
        return bounded.length ? () => `(${bounded.map((render) => render()).join(' && ')})` : undefined;
      }
      case 'or': {
        const bounded = n.children.map(loose);
        return bounded.every((child) => child !== undefined) ? () => `(${bounded.map((render) => render()).join(' || ')})` : undefined;
      }
      case 'not':
        return undefined;
    }
  };
  return loose(node)?.();
}

/** Whether a record can match without containing any word of the query (it is purely negative). */
export function hasPositive(node: QueryNode): boolean {
  if (node.type === 'not') return false;
  if (node.type === 'and') return node.children.some(hasPositive);
  if (node.type === 'or') return node.children.every(hasPositive);
  return true;
}
