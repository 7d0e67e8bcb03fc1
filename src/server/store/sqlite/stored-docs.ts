import Database from 'better-sqlite3';
import type { Deployment } from '../../../deployments/schema';
import { storedBodyCodec } from './record-bodies';
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
  const select = db.prepare<[string], Buffer>(`SELECT doc FROM ${tablesOf(deployment).records} WHERE repo_id = ?`).pluck();
  return {
    changed(records) {
      // Read per call: the deployment's first write chooses its dictionary after this reader opened.
      const codec = storedBodyCodec(db, deployment);
      if (!codec) return [...records];
      return records.filter(({ record }) => {
        const body = select.get(record.repo_id);
        return body === undefined || codec.decode(body) !== JSON.stringify(record);
      });
    },
    close() {
      db.close();
    },
  };
}
