import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { deploymentByKey } from '../../../deployments/registry';
import type { DeploymentKey } from '../../../deployments/schema';
import type { RecordWriter, StoreWriter } from '../types';
import { openHarvestState, type HarvestStateTable } from './harvest-ledger';
import { gatherScript } from './indexer/gather-thread';
import { openStoreWriter } from './sqlite-writer';
import { openStoredDocs, type StoredDocs } from './stored-docs';

export interface SqliteRunOptions {
  /**
   * A database that does not exist yet is written beside its final name and moved into place
   * only by close() (a bulk load: no reader yet, postings built once at the end), so a failed
   * or killed run leaves nothing at the path. Without it (a harvest, whose batches must
   * survive a kill to resume from) a new file is written in place like an existing one.
   */
  readonly wholeNewFile?: boolean;
}

/** The file at the store's path is no longer the one a run writes in place. */
export class StoreReplaced extends Error {
  override name = 'StoreReplaced';
  constructor() {
    super(
      'the file was moved, removed or replaced by another while this run wrote to it; stopped before the next batch (what was written before went to the file that was there)',
    );
  }
}

/**
 * A side copy and SQLite's companions of it. A run killed mid-commit leaves a hot journal
 * that SQLite would replay into whatever file next has the side copy's name, so all of
 * them go before a new copy is made.
 */
function removeSideFiles(side: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(side + suffix, { force: true });
}

function fileIdentity(at: string): string {
  try {
    const { dev, ino } = statSync(at);
    return `${dev}:${ino}`;
  } catch {
    return 'missing';
  }
}

/**
 * A check that the file at `path` is still the one opened. A file moved over the path (or the
 * file removed) while a run writes in place would take no more of its batches: they would go
 * on into the file it replaced, which no one reads.
 */
function sameFileGuard(path: string): () => void {
  const opened = fileIdentity(path);
  return () => {
    if (fileIdentity(path) !== opened) throw new StoreReplaced();
  };
}

/**
 * A run of writes to a SQLite store file. An existing database is written in place: each
 * put() is one transaction in WAL mode, so a running server's readers see the previous state
 * until it commits, and a failed or killed run leaves the previous committed state
 * (sqlite-writer.ts). Copying a database of gigabytes to add a few records would take longer
 * than the write itself.
 */
export async function openSqliteRecordWriter(path: string, { wholeNewFile = false }: SqliteRunOptions = {}): Promise<RecordWriter> {
  const side = `${path}.writing`;
  // What a killed first write of this database left beside it is no use to anyone.
  removeSideFiles(side);
  const whole = wholeNewFile && !existsSync(path);
  const file = whole ? side : path;
  // A bulk load gathers its text on a thread of its own, beside the one writing its rows.
  let writer: StoreWriter | undefined = openStoreWriter(file, { bulk: whole, ...(whole ? { gatherScript: await gatherScript() } : {}) });
  const sameFile = whole ? () => {} : sameFileGuard(file);
  let ledger: HarvestStateTable | undefined;
  const docs = new Map<DeploymentKey, StoredDocs>();
  const open = () => {
    if (!writer) throw new Error(`${path} is closed.`);
    return writer;
  };
  const ledgerTable = () => (ledger ??= openHarvestState(file));
  const closeReaders = () => {
    for (const reader of docs.values()) reader.close();
    docs.clear();
    ledger?.close();
    ledger = undefined;
  };
  return {
    name: path,
    put: async (key, records) => {
      const writing = open();
      sameFile();
      return writing.put(key, records);
    },
    count: async (key) => open().count(key),
    async changed(key, records) {
      open();
      let reader = docs.get(key);
      if (!reader) docs.set(key, (reader = openStoredDocs(file, deploymentByKey(key)!)));
      return reader.changed(records);
    },
    harvests: {
      state: async (key, baseUrl) => ledgerTable().get(key, baseUrl),
      advance: async (...args) => ledgerTable().advance(...args),
      complete: async (...args) => ledgerTable().complete(...args),
    },
    async close() {
      closeReaders();
      const closing = open();
      writer = undefined;
      if (!whole) {
        try {
          closing.close();
        } catch {
          // Every put() committed when it returned; closing cannot change that.
        }
        return;
      }
      try {
        closing.close();
        renameSync(side, path);
      } catch (error) {
        removeSideFiles(side);
        throw error;
      }
    },
    async discard() {
      closeReaders();
      try {
        writer?.close();
      } catch {
        // Closing after a failed write can fail the same way; what it leaves goes regardless.
      }
      writer = undefined;
      if (whole) removeSideFiles(side);
    },
  };
}
