import type { Deployment } from '../../../deployments/schema';

/**
 * The PostgreSQL layout: the source of truth of the records and nothing derived from them.
 * One table per deployment (each has its own id space) holds each record as the importer
 * gave it: the record as JSON text (`doc`, compared by a harvest), what the importer keeps beside
 * it (full text, site, generated flag) as JSON text (`extra`; JSON, so a NUL survives), and `seq`, the
 * change sequence: every write gives each record it writes the next number of
 * `record_changes`, in the same transaction. Writers take one lock for their transaction
 * (`writeLock`), so the numbers commit in order: a reader that sees number n has seen every
 * smaller one, on the primary and on any replica. A server's local index (pg-index.ts)
 * reads what changed after the last number it applied and writes it with the SQLite store's
 * writer, so search, ranking and facets are the SQLite store's own code.
 */

/** The layout's version: a database of another version must be rebuilt. */
export const pgSchemaVersion = () => '7';

/**
 * The channel every write notifies in its transaction (delivered when it commits), so a
 * server's index reads the change at once rather than at its next poll. Only the primary
 * delivers it: a server reading a replica wakes on it too and reads once the replica has
 * replayed the commit, polling as ever.
 */
export const changesChannel = 'record_changes';

/** The transaction-scoped advisory lock every writer holds while it numbers its changes. */
export const writeLock = 0x7265636f; // "reco"

export const pgTable = (deployment: Deployment) => `${deployment.key.toLowerCase()}_records`;

export const setupSql = `
  CREATE TABLE IF NOT EXISTS meta (key text PRIMARY KEY, value text NOT NULL);
  CREATE SEQUENCE IF NOT EXISTS record_changes;
  CREATE TABLE IF NOT EXISTS harvest_state (
    deployment text NOT NULL, base_url text NOT NULL,
    newest_entry text NOT NULL, harvested bigint NOT NULL, completed_at text,
    PRIMARY KEY (deployment, base_url));
`;

export function createTableSql(deployment: Deployment): string {
  const t = pgTable(deployment);
  return `
  CREATE TABLE IF NOT EXISTS ${t} (
    repo_id text COLLATE "C" PRIMARY KEY,
    doc text NOT NULL,
    extra text NOT NULL,
    seq bigint NOT NULL
  );
  CREATE INDEX IF NOT EXISTS ${t}_seq ON ${t} (seq);
  `;
}
