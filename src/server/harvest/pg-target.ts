import pg from 'pg';
import type { Deployment } from '../../deployments/schema';
import { openPgWriter } from '../store/postgres/pg-store';
import { pgTable } from '../store/postgres/pg-schema';
import { parseStoreUrl } from '../store/postgres/pg-pool';
import type { HarvestTarget } from './target';

/** A harvest into PostgreSQL: records through the store's writer, the resume point in `harvest_state` beside them. */
export async function pgTarget(storeUrl: string, deployment: Deployment): Promise<HarvestTarget> {
  const writer = await openPgWriter(storeUrl);
  const client = new pg.Client(parseStoreUrl(storeUrl).primary);
  try {
    await client.connect();
    await client.query(`CREATE TABLE IF NOT EXISTS harvest_state (
      deployment text NOT NULL, base_url text NOT NULL,
      newest_entry text NOT NULL, harvested bigint NOT NULL, completed_at text,
      PRIMARY KEY (deployment, base_url))`);
  } catch (error) {
    await writer.close();
    await client.end().catch(() => undefined);
    throw error;
  }
  const table = pgTable(deployment);
  return {
    name: parseStoreUrl(storeUrl).primary.replace(/\/\/[^@/]*@/, '//'),
    async state(key, baseUrl) {
      const { rows } = await client.query<{ newest_entry: string; harvested: string; completed_at: string | null }>(
        'SELECT newest_entry, harvested::text, completed_at FROM harvest_state WHERE deployment = $1 AND base_url = $2',
        [key, baseUrl],
      );
      const row = rows[0];
      return (
        row && {
          newestEntry: row.newest_entry,
          harvested: Number(row.harvested),
          ...(row.completed_at ? { completedAt: row.completed_at } : {}),
        }
      );
    },
    async advance(key, baseUrl, newestEntry, written) {
      await client.query(
        `INSERT INTO harvest_state (deployment, base_url, newest_entry, harvested) VALUES ($1, $2, $3, $4)
         ON CONFLICT (deployment, base_url) DO UPDATE SET
           newest_entry = greatest(harvest_state.newest_entry, excluded.newest_entry), harvested = harvest_state.harvested + excluded.harvested`,
        [key, baseUrl, newestEntry, written],
      );
    },
    async complete(key, baseUrl, at) {
      await client.query('UPDATE harvest_state SET completed_at = $1 WHERE deployment = $2 AND base_url = $3', [at, key, baseUrl]);
    },
    async changed(records) {
      const { rows } = await client.query<{ repo_id: string; doc: string }>(
        `SELECT repo_id, doc FROM ${table} WHERE repo_id = ANY($1::text[])`,
        [records.map(({ record }) => record.repo_id)],
      );
      const stored = new Map(rows.map((row) => [row.repo_id, row.doc]));
      return records.filter(({ record }) => stored.get(record.repo_id) !== JSON.stringify(record));
    },
    count: (key) => writer.count(key),
    put: (key, records) => writer.put(key, records),
    async close() {
      await writer.close();
      await client.end();
    },
  };
}
