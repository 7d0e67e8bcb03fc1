import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from './sqlite';
import type { RecordStore } from './types';

/** One read-only connection per worker thread; answers the pool's requests in order. */

export type StoreRequest =
  | { id: number; op: 'search'; args: Parameters<RecordStore['search']> }
  | { id: number; op: 'get'; args: Parameters<RecordStore['get']> }
  | { id: number; op: 'fulltext'; args: Parameters<RecordStore['fulltext']> }
  | { id: number; op: 'count'; args: Parameters<RecordStore['count']> };

export type StoreReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

const store = openStore((workerData as { path: string }).path);

parentPort!.on('message', async (request: StoreRequest) => {
  try {
    const value = await (store[request.op] as (...args: unknown[]) => Promise<unknown>)(...request.args);
    parentPort!.postMessage({ id: request.id, ok: true, value } satisfies StoreReply);
  } catch (error) {
    parentPort!.postMessage({ id: request.id, ok: false, message: (error as Error).message } satisfies StoreReply);
  }
});
