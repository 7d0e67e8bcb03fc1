import { cachedStore } from '../cached-store';
import { localCalls } from '../engine-calls';
import { openEngine } from './query-engine';
import { claimLog } from './store-log';
import type { RecordStore } from '../types';

/**
 * The read side of the SQLite store, in this thread: the query engine (engine.ts) behind
 * the cache of search orders and totals (cached-store.ts). `records serve` runs the same
 * engine on worker threads instead (pooled-store.ts).
 */
export function openStore(path: string): RecordStore {
  const setAside = claimLog(path);
  if (setAside) console.error(`records: ${setAside}`);
  return cachedStore(localCalls(openEngine(path)));
}

// The write side lives in its own module; callers find both here.
export { openStoreWriter } from './sqlite-writer';
