import Database from 'better-sqlite3';
import type { Deployment } from '../../deployments/schema';
import { tablesOf } from '../store/sqlite/schema';
import type { StoredRecord } from '../store/types';

/**
 * Which harvested records the store already holds exactly. Every incremental run fetches
 * its boundary day again; writing those records again would cost a full-text delete and
 * insert each, and a batch with nothing new would still make the writer rebuild the
 * deployment's postings. The store keeps each record as `JSON.stringify(record)`, which is
 * what the importer's mapping of an unchanged record gives again.
 */
export interface StoredDocs {
  /** The records that are new or differ from their stored version, in their order. */
  changed(records: readonly StoredRecord[]): StoredRecord[];
  close(): void;
}

export function openStoredDocs(path: string, deployment: Deployment): StoredDocs {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 10000');
  const select = db.prepare<[string], { doc: string }>(`SELECT doc FROM ${tablesOf(deployment).records} WHERE repo_id = ?`);
  return {
    changed(records) {
      return records.filter(({ record }) => select.get(record.repo_id)?.doc !== JSON.stringify(record));
    },
    close() {
      db.close();
    },
  };
}
