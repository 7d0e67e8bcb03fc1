import Database from 'better-sqlite3';
import type { DeploymentKey } from '../../../deployments/schema';
import type { HarvestState } from '../types';
import { stampOf } from './store-log';

/** The SQLite store's harvest ledger (types.ts, HarvestLedger): table `harvest_state` in the store file. */

export interface HarvestStateTable {
  get(deployment: DeploymentKey, baseUrl: string): HarvestState | undefined;
  /** Moves the resume point forward (never back) after a batch of `written` records. */
  advance(deployment: DeploymentKey, baseUrl: string, newestEntry: string, written: number): void;
  complete(deployment: DeploymentKey, baseUrl: string, at: string): void;
  close(): void;
}

interface Row {
  newest_entry: string;
  harvested: number;
  completed_at: string | null;
}

export function openHarvestState(path: string): HarvestStateTable {
  const db = new Database(path);
  // The store writer holds its own connection to the same file; wait for it briefly.
  db.pragma('busy_timeout = 10000');
  db.exec(`CREATE TABLE IF NOT EXISTS harvest_state (
    deployment TEXT NOT NULL, base_url TEXT NOT NULL,
    newest_entry TEXT NOT NULL, harvested INTEGER NOT NULL, completed_at TEXT,
    PRIMARY KEY (deployment, base_url)
  )`);
  const select = db.prepare<[string, string], Row>(
    `SELECT newest_entry, harvested, completed_at FROM harvest_state WHERE deployment = ? AND base_url = ?`,
  );
  const upsert = db.prepare<[string, string, string, number]>(
    `INSERT INTO harvest_state (deployment, base_url, newest_entry, harvested) VALUES (?, ?, ?, ?)
     ON CONFLICT (deployment, base_url) DO UPDATE SET
       newest_entry = max(newest_entry, excluded.newest_entry), harvested = harvested + excluded.harvested`,
  );
  const markComplete = db.prepare<[string, string, string]>(
    `UPDATE harvest_state SET completed_at = ? WHERE deployment = ? AND base_url = ?`,
  );
  // Each commit carries the file's stamp, as the store writer's do: a log whose last commit
  // bore none would be set aside as another file's, and the resume point lost with it (store-log.ts).
  const setStamp = db.prepare(`PRAGMA user_version = ${stampOf(path)}`);
  const stamped = db.transaction((write: () => void) => {
    setStamp.run();
    write();
  });
  return {
    get(deployment, baseUrl) {
      const row = select.get(deployment, baseUrl);
      if (!row) return undefined;
      return { newestEntry: row.newest_entry, harvested: row.harvested, ...(row.completed_at ? { completedAt: row.completed_at } : {}) };
    },
    advance(deployment, baseUrl, newestEntry, written) {
      stamped(() => upsert.run(deployment, baseUrl, newestEntry, written));
    },
    complete(deployment, baseUrl, at) {
      stamped(() => markComplete.run(at, deployment, baseUrl));
    },
    close() {
      db.close();
    },
  };
}
