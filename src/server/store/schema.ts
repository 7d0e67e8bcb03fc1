import type { Deployment } from '../../deployments/schema';
import { searchColumns } from '../../deployments/schema';

/**
 * The SQLite layout, one set of tables per deployment (each has its own id space):
 *   <p>_records  one row per record: the record as JSON plus sort/filter columns
 *   <p>_text     the text of each full-text column, the external content of <p>_fts
 *   <p>_fts      FTS5 index: porter stemming over unicode61 with diacritics folded
 *   <p>_keys     exact-match keys (identifier, doi, language, ...) as (name, value, rec), and
 *                facet values as readers see them under `facet:<name>` (facet-values.ts)
 *   <p>_postings every token of <p>_fts with its documents and weighted counts, per column too (postings.ts)
 *   <p>_positions every token's positions, for phrase searches (postings.ts)
 *   <p>_lengths  the token count of every document, and the index totals, as of that build
 */

/** Changes whenever what is stored or indexed changes: an older database must be rebuilt. */
export const schemaVersion = '3';

export function tablePrefix(deployment: Deployment): string {
  return deployment.key.toLowerCase();
}

export function tablesOf(deployment: Deployment) {
  const p = tablePrefix(deployment);
  return {
    records: `${p}_records`,
    text: `${p}_text`,
    fts: `${p}_fts`,
    keys: `${p}_keys`,
    postings: `${p}_postings`,
    lengths: `${p}_lengths`,
    positions: `${p}_positions`,
  };
}

/** How FTS5 splits text into tokens; postings.ts tokenizes query words with the same. */
export const ftsTokenizer = 'porter unicode61 remove_diacritics 2';

/** bm25 weights by column: a word in the title counts most, one in the full text least. */
export const columnWeights: Record<(typeof searchColumns)[number], number> = {
  title: 10,
  authors: 5,
  subjects: 4,
  description: 2,
  biblio: 2,
  sponsor: 1,
  research: 1,
  contributing: 1,
  fulltext: 1,
};

export function createSchemaSql(deployment: Deployment): string {
  const t = tablesOf(deployment);
  const columns = searchColumns.join(', ');
  return `
    CREATE TABLE IF NOT EXISTS ${t.records} (
      id INTEGER PRIMARY KEY,
      repo_id TEXT NOT NULL UNIQUE,
      publication_date TEXT,
      entry_date TEXT,
      title_key TEXT NOT NULL DEFAULT '',
      doc TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS ${t.text} (id INTEGER PRIMARY KEY, ${columns});
    CREATE VIRTUAL TABLE IF NOT EXISTS ${t.fts} USING fts5(
      ${columns},
      content='${t.text}', content_rowid='id',
      tokenize='${ftsTokenizer}'
    );
    CREATE TABLE IF NOT EXISTS ${t.keys} (
      name TEXT NOT NULL, value TEXT NOT NULL, rec INTEGER NOT NULL,
      PRIMARY KEY (name, value, rec)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ${t.postings} (
      col TEXT NOT NULL, term TEXT NOT NULL, docs INTEGER NOT NULL, data BLOB NOT NULL,
      PRIMARY KEY (col, term)
    );
    CREATE TABLE IF NOT EXISTS ${t.lengths} (rows INTEGER NOT NULL, tokens INTEGER NOT NULL, data BLOB NOT NULL);
    CREATE TABLE IF NOT EXISTS ${t.positions} (term TEXT PRIMARY KEY, data BLOB NOT NULL);
    ${secondaryIndexesSql(deployment)}
  `;
}

/**
 * The indexes a bulk load drops and builds again at its end: building an index from a full
 * table sorts once, where inserting a million rows one by one into it costs a random
 * B-tree insert each.
 */
export function secondaryIndexesSql(deployment: Deployment): string {
  const t = tablesOf(deployment);
  return `
    CREATE INDEX IF NOT EXISTS ${t.records}_publication ON ${t.records} (publication_date, repo_id);
    CREATE INDEX IF NOT EXISTS ${t.records}_entry ON ${t.records} (entry_date, repo_id);
    CREATE INDEX IF NOT EXISTS ${t.records}_title ON ${t.records} (title_key, repo_id);
    CREATE INDEX IF NOT EXISTS ${t.keys}_rec ON ${t.keys} (rec);
  `;
}

export function dropSecondaryIndexesSql(deployment: Deployment): string {
  const t = tablesOf(deployment);
  return [`${t.records}_publication`, `${t.records}_entry`, `${t.records}_title`, `${t.keys}_rec`].map((name) => `DROP INDEX IF EXISTS ${name};`).join('\n');
}
