import type Database from 'better-sqlite3';
import type { FacetDef } from '../../deployments/facets';
import type { Deployment, SearchColumn } from '../../deployments/schema';
import type { QueryNode } from '../query/ast';
import { phraseSelector } from './facet-values';
import { scratchTokenizer } from './fts5-adapter';
import { ftsTokenizer, tablesOf } from './schema';

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

/** Records tokenized per round: bounds the scratch table and the token arrays. */
const batchSize = 4096;

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
  const tokenize = scratchTokenizer(db, `${tablesOf(deployment).fts}_phrase_tokenize`, ftsTokenizer);
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
  if (tries.size > 0) collect(db, deployment, [...tries.values()], tokenIds);
  return lists.map((values) => values.map((ids) => (ids instanceof Int32Array ? ids : Int32Array.from(ids))));
}

/** Walks every trie from every token of every record, adding each record once to each value it matches. */
function collect(db: Database.Database, deployment: Deployment, tries: readonly Trie[], tokenIds: ReadonlyMap<string, number>) {
  const t = tablesOf(deployment);
  const columns = [...new Set(tries.flatMap((trie) => trie.columns))];
  const triesOf = new Map(columns.map((column) => [column, tries.filter((trie) => trie.columns.includes(column))]));
  const scratch = `${t.fts}_phrase_scan`;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${scratch} USING fts5(${columns.join(', ')}, tokenize='${ftsTokenizer}')`);
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${scratch}_instances USING fts5vocab(temp, ${scratch}, 'instance')`);
  const rows = db.prepare(`SELECT id, ${columns.join(', ')} FROM ${t.text} WHERE id > ? ORDER BY id LIMIT ${batchSize}`).raw();
  const put = db.prepare(`INSERT INTO temp.${scratch} (rowid, ${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}, ?)`);
  const instances = db.prepare(`SELECT term, doc, col, offset FROM temp.${scratch}_instances`).raw();
  const clear = db.prepare(`DELETE FROM temp.${scratch}`);
  // The last record added to each list, so a record matching a value twice is added once.
  const last = new Map<number[], number>();
  try {
    for (let after = -1; ;) {
      const batch = rows.all(after) as [number, ...(string | null)[]][];
      if (batch.length === 0) break;
      after = batch[batch.length - 1]![0];
      for (const [id, ...text] of batch) put.run(id, ...text);
      // Each record's tokens by column and offset; tokens no phrase holds are left out (holes).
      const tokens = new Map<number, Map<string, number[]>>();
      for (const [term, doc, col, offset] of instances.iterate() as Iterable<[string, number, string, number]>) {
        const id = tokenIds.get(term);
        if (id === undefined) continue;
        let byColumn = tokens.get(doc);
        if (!byColumn) tokens.set(doc, (byColumn = new Map<string, number[]>()));
        let line = byColumn.get(col);
        if (!line) byColumn.set(col, (line = []));
        line[offset] = id;
      }
      clear.run();
      for (const [doc] of batch) {
        for (const [column, line] of tokens.get(doc) ?? []) {
          for (const trie of triesOf.get(column as SearchColumn) ?? []) {
            for (let start = 0; start < line.length; start++) {
              let node: TrieNode | undefined = trie.root;
              for (let at = start; node && at < line.length; at++) {
                const token = line[at];
                node = token === undefined ? undefined : node.next.get(token);
                if (!node) break;
                for (const ids of node.ends) {
                  if (last.get(ids) === doc) continue;
                  last.set(ids, doc);
                  ids.push(doc);
                }
              }
            }
          }
        }
      }
    }
  } finally {
    db.exec(`DROP TABLE temp.${scratch}_instances; DROP TABLE temp.${scratch}`);
  }
}
