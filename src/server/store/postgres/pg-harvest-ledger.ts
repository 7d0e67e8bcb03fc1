import type pg from 'pg';
import type { HarvestLedger } from '../types';

/** The PostgreSQL store's harvest ledger (types.ts, HarvestLedger): table `harvest_state` on the primary (pg-schema.ts). */
export function pgHarvestLedger(client: pg.ClientBase): HarvestLedger {
  return {
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
  };
}
