import type { Deployment } from '../../../deployments/schema';
import { searchModel } from '../../../deployments/search-model';
import { modelDigest } from '../model-digest';

/**
 * The SQLite layout, one set of tables per deployment (each has its own id space):
 *   <p>_records  one row per record: the record's JSON, LZ4-compressed (record-bodies.ts), plus a
 *                column per sortable or date-bounded field of the search model (search-model.ts),
 *                what the importer kept beside it that its keys are drawn from (site, generated),
 *                and its full text (compressed too), which is not part of the record. The text the
 *                postings are built from is drawn from these again (stored-text.ts), never kept twice
 *   <p>_body_dictionary  the dictionary the bodies are compressed against, chosen by the first write
 *   <p>_keys     exact-match keys (identifier, doi, language, ...): per (name, value) the records
 *                under it, a row per chunk of record ids (key-lists.ts); a replaced record's
 *                are found by drawing them again from its row. Facet values are not here:
 *                the facet columns below are their one copy
 *   <p>_postings every token of the text with its documents and weighted counts, per column too (postings.ts)
 *   <p>_positions every token's positions, for phrase searches (engine/postings/positions.ts)
 *   <p>_common   the tokens common enough for their adjacent pairs to have lists (engine/postings/pairs.ts)
 *   <p>_pairs    the lists of adjacent pairs of common tokens, in the pair columns too, by an integer row
 *                numbering the two tokens among the common ones and the column (pairs.ts's pairRow)
 *   <p>_lengths  the token count of every document, and the index totals, as of that build
 *   <p>_postings_tail, <p>_positions_tail, <p>_pairs_tail
 *                what writes of new records appended to a list since it was last written
 *                whole, laid out as the list's own table (postings-tails.ts)
 *   <p>_facet_dict   each facet's values as records hold them, by code, and the group each counts in (facets/facet-columns.ts)
 *   <p>_facet_blocks each facet's value codes per record, in blocks of records (facets/code-blocks.ts)
 */

/**
 * Changes whenever the layout below, the postings codec (engine/postings/), the key lists'
 * (key-lists.ts), how a body is kept (record-bodies.ts), the text it indexes
 * (formats/index-text.ts, formats/fold-text.ts: a replaced record's old text is drawn again
 * from its row to take it out of the postings), how keys are drawn from a record
 * (formats/keys.ts, facet-values.ts: a replaced record's old keys are drawn again to delete
 * them) or how a facet value groups (formats/value-folding.ts: the facet columns keep each
 * value's group) changes.
 */
const layoutVersion = '25';

/** The store's schema version: the layout and what the deployment table asks of it. An older database must be rebuilt. */
export const storeSchemaVersion = () => `${layoutVersion}.${modelDigest()}`;

export function tablePrefix(deployment: Deployment): string {
  return deployment.key.toLowerCase();
}

export function tablesOf(deployment: Deployment) {
  const p = tablePrefix(deployment);
  return {
    records: `${p}_records`,
    bodyDictionary: `${p}_body_dictionary`,
    /** The prefix of the FTS5 tables in the temp schema that tokenize text: the store itself holds none. */
    tokenizing: `${p}_fts`,
    keys: `${p}_keys`,
    terms: `${p}_terms`,
    postings: `${p}_postings`,
    lengths: `${p}_lengths`,
    positions: `${p}_positions`,
    common: `${p}_common`,
    pairs: `${p}_pairs`,
    postingsTail: `${p}_postings_tail`,
    positionsTail: `${p}_positions_tail`,
    pairsTail: `${p}_pairs_tail`,
    facetDict: `${p}_facet_dict`,
    facetBlocks: `${p}_facet_blocks`,
  };
}

/** How FTS5 splits text into tokens: the postings are built with it, and query words are tokenized with the same. */
export const ftsTokenizer = 'porter unicode61 remove_diacritics 2';

/** The index on an ordered column: it walks the column in order, ties broken by repo_id. */
export const orderIndex = (deployment: Deployment, column: string) => `${tablesOf(deployment).records}_by_${column}`;

export function createSchemaSql(deployment: Deployment): string {
  const t = tablesOf(deployment);
  return `
    CREATE TABLE IF NOT EXISTS ${t.records} (
      id INTEGER PRIMARY KEY,
      repo_id TEXT NOT NULL UNIQUE,
      ${searchModel(deployment)
        .ordered.map(({ column }) => `${column} TEXT,`)
        .join('\n      ')}
      doc BLOB NOT NULL,
      site TEXT,
      generated INTEGER NOT NULL DEFAULT 0,
      fulltext BLOB
    );
    CREATE TABLE IF NOT EXISTS ${t.bodyDictionary} (data BLOB NOT NULL);
    CREATE TABLE IF NOT EXISTS ${t.keys} (
      name TEXT NOT NULL, value TEXT NOT NULL, chunk INTEGER NOT NULL, data BLOB NOT NULL,
      PRIMARY KEY (name, value, chunk)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${t.lengths} (rows INTEGER NOT NULL, tokens INTEGER NOT NULL, data BLOB NOT NULL);
    CREATE TABLE IF NOT EXISTS ${t.terms} (term TEXT PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${t.common} (term TEXT PRIMARY KEY) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${t.facetDict} (
      facet TEXT NOT NULL, code INTEGER NOT NULL, value TEXT NOT NULL, grp TEXT NOT NULL,
      PRIMARY KEY (facet, code)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${t.facetBlocks} (facet TEXT NOT NULL, block INTEGER NOT NULL, data BLOB NOT NULL, UNIQUE (facet, block));
    ${postingsTablesSql(deployment)}
    ${secondaryIndexesSql(deployment)}
  `;
}

/** The lists' tables and their tails', which are empty until a write appends. */
function postingsTablesSql(deployment: Deployment): string {
  const t = tablesOf(deployment);
  // Every list's row is its integer key (term-rows.ts, pairs.ts's pairRow): one B-tree per table, no second copy of a text key.
  const lists = (table: string) =>
    `CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY, docs INTEGER NOT NULL, data BLOB NOT NULL);`;
  const positions = (table: string) => `CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY, data BLOB NOT NULL);`;
  return [
    lists(t.postings),
    lists(t.postingsTail),
    positions(t.positions),
    positions(t.positionsTail),
    lists(t.pairs),
    lists(t.pairsTail),
  ].join('\n    ');
}

/**
 * The indexes a bulk load drops and builds again at its end: building an index from a full
 * table sorts once, where inserting a million rows one by one into it costs a random
 * B-tree insert each.
 */
export function secondaryIndexesSql(deployment: Deployment): string {
  const { records } = tablesOf(deployment);
  return searchModel(deployment)
    .ordered.map(({ column }) => `CREATE INDEX IF NOT EXISTS ${orderIndex(deployment, column)} ON ${records} (${column}, repo_id);`)
    .join('\n');
}

export function dropSecondaryIndexesSql(deployment: Deployment): string {
  return searchModel(deployment)
    .ordered.map(({ column }) => orderIndex(deployment, column))
    .map((name) => `DROP INDEX IF EXISTS ${name};`)
    .join('\n');
}
