import Database from 'better-sqlite3';
import type { Deployment } from '../../../deployments/schema';
import { tablesOf } from './schema';
import type { StoredRecord } from '../types';

/** Which records the SQLite store already holds exactly (RecordWriter.changed). */
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
