import type { Deployment, DeploymentKey } from '../../deployments/schema';
import { openStoreWriter } from '../store/sqlite/sqlite';
import type { StoredRecord } from '../store/types';
import { openHarvestState, type HarvestState } from './state';
import { openStoredDocs } from './stored-docs';

/**
 * Where a harvest writes: the records, the unchanged-record check, and the resume point,
 * all in one store. A SQLite file (`--db`, `--store sqlite:PATH`) or PostgreSQL (`--store
 * postgres://…`, pg-target.ts); asynchronous because PostgreSQL is.
 */
export interface HarvestTarget {
  /** Where, for messages. */
  readonly name: string;
  state(deployment: DeploymentKey, baseUrl: string): Promise<HarvestState | undefined>;
  /** Moves the resume point forward (never back) after a batch of `written` records. */
  advance(deployment: DeploymentKey, baseUrl: string, newestEntry: string, written: number): Promise<void>;
  complete(deployment: DeploymentKey, baseUrl: string, at: string): Promise<void>;
  /** The records that are new or differ from their stored version, in their order. */
  changed(records: readonly StoredRecord[]): Promise<StoredRecord[]>;
  count(deployment: DeploymentKey): Promise<number>;
  /** One atomic, durable batch. */
  put(deployment: DeploymentKey, records: readonly StoredRecord[]): Promise<number>;
  close(): Promise<void>;
}

export function sqliteTarget(path: string, deployment: Deployment): HarvestTarget {
  const writer = openStoreWriter(path);
  let state;
  let docs;
  try {
    state = openHarvestState(path);
    docs = openStoredDocs(path, deployment);
  } catch (error) {
    state?.close();
    writer.close();
    throw error;
  }
  const [stateTable, storedDocs] = [state, docs];
  return {
    name: path,
    state: async (key, baseUrl) => stateTable.get(key, baseUrl),
    advance: async (...args) => stateTable.advance(...args),
    complete: async (...args) => stateTable.complete(...args),
    changed: async (records) => storedDocs.changed(records),
    count: async (key) => writer.count(key),
    put: async (key, records) => writer.put(key, records),
    async close() {
      storedDocs.close();
      stateTable.close();
      writer.close();
    },
  };
}
