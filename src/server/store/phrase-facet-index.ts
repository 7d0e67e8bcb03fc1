import type Database from 'better-sqlite3';
import type { FacetDef } from '../../deployments/facets';
import type { Deployment, SearchColumn } from '../../deployments/schema';
import type { QueryNode } from '../query/ast';
import { phraseSelector } from './facet-values';
import { scratchTokenizer } from './sqlite/fts5-adapter';
import { tablesOf } from './sqlite/schema';

/**
 * The records each value of a broader (phrase) facet selects, for every value at once: the
 * values' phrases go into a trie of index tokens, and one pass over the records' text in
 * the searched columns, tokenized by the index's own tokenizer, walks the trie from every
 * token. A record matches a phrase exactly where the postings say it does: its tokens stand
 * one after another in one of the parameter's columns. The work is the records' tokens
 * (times the few trie steps a start can take), not a search per value, so a facet of tens
 * of thousands of values is ordered by its own counts too.
 */

/** The records a value selects, by a search: for a value whose query the trie cannot hold. */
export type SearchValue = (facet: FacetDef, value: string) => Int32Array;

/** Records read per statement. */
const batchSize = 2048;

type Row = [id: number, ...texts: (string | null)[]];

/** Distinct parts of column text whose tokens are kept (columns of identifiers have a part per record). */
const maxParts = 200_000;

interface TrieNode {
  readonly next: Map<number, TrieNode>;
  /** Where the records of each value whose phrase ends here are collected. */
  readonly ends: number[][];
}

const trieNode = (): TrieNode => ({ next: new Map(), ends: [] });

interface Trie {
  readonly columns: readonly SearchColumn[];
  readonly root: TrieNode;
}

/** The text a query of one word or phrase searches; undefined for any other query. */
const wordText = (query: QueryNode) => ((query.type === 'term' && !query.prefix) || query.type === 'phrase' ? query.text : undefined);

/** Per facet, per value (in the order given), the sorted ids of the records the value's phrase selects. */
export function phraseFacetLists(
  db: Database.Database,
  deployment: Deployment,
  facets: readonly { readonly facet: FacetDef; readonly values: readonly string[] }[],
  search: SearchValue,
): Int32Array[][] {
  const tokenize = scratchTokenizer(db, `${tablesOf(deployment).tokenizing}_phrase`);
  const tokenIds = new Map<string, number>();
  const tries = new Map<string, Trie>();
  const lists = facets.map(({ facet, values }) =>
    values.map((value): Int32Array | number[] => {
      const selector = phraseSelector(deployment, facet, value);
      if (!selector) return new Int32Array(0);
      const [text, ...others] = selector.text;
      const words = text && others.length === 0 ? wordText(text.query) : undefined;
      // The engine tokenizes a leaf's text so too (NUL reaches FTS5 as a space).
      const tokens = words === undefined ? [] : tokenize(words.replace(/\u0000/g, ' '));
      if (tokens.length === 0 || selector.exact.length > 0 || selector.dates.length > 0) return search(facet, value);
      const key = text!.columns.join(' ');
      let trie = tries.get(key);
      if (!trie) tries.set(key, (trie = { columns: text!.columns, root: trieNode() }));
      let node = trie.root;
      for (const token of tokens) {
        let id = tokenIds.get(token);
        if (id === undefined) tokenIds.set(token, (id = tokenIds.size));
        let child = node.next.get(id);
        if (!child) node.next.set(id, (child = trieNode()));
        node = child;
      }
      const ids: number[] = [];
      node.ends.push(ids);
      return ids;
    }),
  );
  if (tries.size > 0) collect(db, deployment, [...tries.values()], tokenIds, tokenize);
  return lists.map((values) => values.map((ids) => (ids instanceof Int32Array ? ids : Int32Array.from(ids))));
}

/**
 * Walks every trie from every token of every record, adding each record once to each value
 * it matches. A column's text is its parts joined by line breaks (index-text.ts), and no
 * token spans a separator, so a record's tokens are its parts' tokens one after another:
 * each distinct part is tokenized once, however many records share it.
 */
function collect(
  db: Database.Database,
  deployment: Deployment,
  tries: readonly Trie[],
  tokenIds: ReadonlyMap<string, number>,
  tokenize: (text: string) => string[],
) {
  const t = tablesOf(deployment);
  const columns = [...new Set(tries.flatMap((trie) => trie.columns))];
  const triesOf = columns.map((column) => tries.filter((trie) => trie.columns.includes(column)));
  const rows = db.prepare(`SELECT id, ${columns.join(', ')} FROM ${t.text} WHERE id > ? ORDER BY id LIMIT ${batchSize}`).raw();
  // A part's tokens as trie token ids (-1: a token no phrase holds).
  const parts = new Map<string, Int32Array>();
  const tokensOf = (part: string) => {
    let ids = parts.get(part);
    if (!ids) {
      if (parts.size >= maxParts) parts.clear();
      ids = Int32Array.from(tokenize(part), (token) => tokenIds.get(token) ?? -1);
      parts.set(part, ids);
    }
    return ids;
  };
  // The last record added to each list, so a record matching a value twice is added once.
  const last = new Map<number[], number>();
  let line = new Int32Array(256);
  // In batches: the tokenizer is a statement of the same connection, which a running query would hold.
  for (let batch = rows.all(-1) as Row[]; batch.length > 0; batch = rows.all(batch[batch.length - 1]![0]) as Row[]) {
    for (const [doc, ...texts] of batch) {
      texts.forEach((text, c) => {
        if (!text) return;
        let length = 0;
        for (const part of text.split('\n')) {
          const ids = tokensOf(part);
          if (length + ids.length > line.length) {
            const grown = new Int32Array(Math.max(line.length * 2, length + ids.length));
            grown.set(line.subarray(0, length));
            line = grown;
          }
          line.set(ids, length);
          length += ids.length;
        }
        for (const trie of triesOf[c]!) {
          for (let start = 0; start < length; start++) {
            let node = trie.root.next.get(line[start]!);
            for (let at = start + 1; node; at++) {
              for (const ids of node.ends) {
                if (last.get(ids) === doc) continue;
                last.set(ids, doc);
                ids.push(doc);
              }
              if (at >= length) break;
              node = node.next.get(line[at]!);
            }
          }
        }
      });
    }
  }
}
