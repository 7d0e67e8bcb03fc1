import Database from 'better-sqlite3';
import { reloadingStore } from '../reloading-store';
import type { RecordStore } from '../types';
import { openPgIndex } from './pg-index';

/**
 * The API's store on PostgreSQL: PostgreSQL holds the records (the one source of truth, with
 * its streaming replicas and backups), and each server answers from its local index of them
 * (pg-index.ts), served as a SQLite store file is, so a change the index applies is picked
 * up like an import into a served file (reloading-store.ts).
 */

export interface PgStoreOptions {
  /** The folder of the local index (`--index-dir`). */
  readonly indexDir: string;
  /** Opens the local index file as a store (the server's pooled store, or one in this thread). */
  readonly open: (path: string) => Promise<RecordStore>;
  /** How often PostgreSQL is asked for changes, and the served file for a new revision. */
  readonly pollMs?: number;
  /** Rows per transaction of the index (pg-index.ts). */
  readonly chunkRows?: number;
  readonly log?: (line: string) => void;
  /** Called when the served generation has moved its snapshots off the index's write-ahead log and emptied it (reloading-store.ts). */
  readonly onLogReleased?: (generation: number) => void;
}

export interface PgStore extends RecordStore {
  /** Resolves once every change committed before the call is served. */
  caughtUp(): Promise<void>;
}

/** Opens the store at `--store`'s URL list: a primary, then any replicas. */
export async function openPgStore(
  storeUrl: string,
  { indexDir, open, pollMs = 1000, chunkRows, log, onLogReleased }: PgStoreOptions,
): Promise<PgStore> {
  let served: Awaited<ReturnType<typeof reloadingStore>> | undefined;
  const index = await openPgIndex(storeUrl, {
    dir: indexDir,
    pollMs,
    ...(chunkRows ? { chunkRows } : {}),
    ...(log ? { log } : {}),
    // The served file is looked at as soon as a change is in it, not at the next check.
    onApplied: () => served?.checkNow(),
  });
  let generation = 0;
  let waiters: { after: number; resolve: () => void }[] = [];
  try {
    served = await reloadingStore(index.path, open, {
      checkMs: pollMs,
      ...(log ? { log } : {}),
      ...(onLogReleased ? { onLogReleased } : {}),
      onGeneration(count, facets) {
        // Served whole once its facets are: searches of a generation are served before them.
        if (!facets) return;
        generation = count;
        waiters = waiters.filter((waiter) => (waiter.after < generation ? (waiter.resolve(), false) : true));
      },
    });
  } catch (error) {
    await index.close();
    throw error;
  }
  const store = served;
  return {
    get revision() {
      return store.revision;
    },
    search: (...args) => store.search(...args),
    ...(store.page ? { page: (...args: Parameters<NonNullable<RecordStore['page']>>) => store.page!(...args) } : {}),
    facets: (...args) => store.facets(...args),
    get: (...args) => store.get(...args),
    fulltext: (...args) => store.fulltext(...args),
    count: (...args) => store.count(...args),
    suggest: (key, q) => store.suggest?.(key, q) ?? Promise.resolve(undefined),
    complete: (key, request) => store.complete?.(key, request) ?? Promise.resolve([]),
    async caughtUp() {
      await index.caughtUp();
      // The file's revision now is served whole (facets too) at the latest by the next generation.
      const seen = generation;
      if (store.facetsRevision !== revisionOf(index.path)) await new Promise<void>((resolve) => waiters.push({ after: seen, resolve }));
    },
    async close() {
      // The workers first: their snapshots would keep the index's last checkpoint from emptying its log.
      await store.close();
      await index.close();
    },
  };
}

function revisionOf(path: string): string {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'revision'`).get()?.value ?? 'empty';
  } finally {
    db.close();
  }
}
