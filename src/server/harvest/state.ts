import Database from 'better-sqlite3';
import { stampOf } from '../store/sqlite/store-log';
import type { DeploymentKey } from '../../deployments/schema';

/**
 * Where each harvest source stands, kept in the store it fills (table `harvest_state`,
 * one row per deployment and base URL), so the store and its resume point travel together.
 * The row is written after each batch commits: a run killed in between leaves it one
 * batch behind, which only makes the next run fetch that batch again (puts replace by
 * repo_id), never skip one.
 */

export interface HarvestState {
  /** The newest `entry_date` stored from this source. */
  readonly newestEntry: string;
  /** Records written from this source over all runs, replacements included. */
  readonly harvested: number;
  /** When a run last reached the source's last page (ISO), if one ever did. */
  readonly completedAt?: string;
}

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
