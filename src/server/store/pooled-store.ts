import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { cachedStore, type EngineCalls } from './cached-store';
import { openEngine, type EngineOptions } from './engine';
import type { StoreReply, StoreRequest, WorkerSettings } from './store-worker';
import type { RecordStore } from './types';

/**
 * A RecordStore whose queries run on worker threads, each with its own read-only SQLite
 * connection, so a slow query never blocks the event loop or the requests behind it.
 * Requests go to the worker with the fewest in flight. The cache of search orders and
 * totals (cached-store.ts) lives here in the main thread, shared by all workers.
 */

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>;
}

const workerUrl = new URL('./store-worker.ts', import.meta.url).href;
// Workers start without the main thread's TypeScript loader, so the entry registers tsx
// before importing the worker module.
const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}); })`;

export interface PoolOptions {
  readonly size?: number;
  /** Called with each worker started, replacements included (tests use it to stop one). */
  readonly onWorker?: (worker: Worker) => void;
  /** Budget of the cache of search orders in this thread (cached-store.ts); 0 turns it off. */
  readonly cacheBytes?: number;
  /** How each worker opens its engine (e.g. `{ matchSets: 0 }` so it keeps no match sets either). */
  readonly engine?: EngineOptions;
}

export function openPooledStore(path: string, { size = Math.max(2, availableParallelism()), onWorker, cacheBytes, engine = {} }: PoolOptions = {}): RecordStore {
  // Opening once here checks the file and reads the revision before any worker starts.
  const probe = openEngine(path);
  const revision = probe.revision;
  probe.close();

  let nextId = 1;
  let closing = false;

  // A worker that dies (a native crash, running out of memory) fails only the requests it
  // held; a fresh worker takes its place so later requests are still answered.
  function spawn(slot: Slot): void {
    const worker = new Worker(bootstrap, { eval: true, workerData: { path, engine } satisfies WorkerSettings });
    slot.worker = worker;
    onWorker?.(worker);
    worker.on('message', (reply: StoreReply) => {
      const waiting = slot.pending.get(reply.id);
      if (!waiting) return;
      slot.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(new Error(reply.message));
    });
    const failPending = (error: Error) => {
      for (const waiting of slot.pending.values()) waiting.reject(error);
      slot.pending.clear();
    };
    worker.on('error', failPending);
    worker.on('exit', (code) => {
      if (closing || slot.worker !== worker) return;
      failPending(new Error(`store worker stopped (exit code ${code})`));
      spawn(slot);
    });
  }

  const slots: Slot[] = Array.from({ length: size }, () => {
    const slot = { pending: new Map() } as Slot;
    spawn(slot);
    return slot;
  });

  function call<T>(op: StoreRequest['op'], args: unknown[]): Promise<T> {
    const slot = slots.reduce((best, candidate) => (candidate.pending.size < best.pending.size ? candidate : best));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      slot.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      slot.worker.postMessage({ id, op, args });
    });
  }

  const calls: EngineCalls = {
    revision,
    rankPage: (...args) => call('rankPage', args),
    fetch: (...args) => call('fetch', args),
    facets: (...args) => call('facets', args),
    get: (...args) => call('get', args),
    fulltext: (...args) => call('fulltext', args),
    count: (...args) => call('count', args),
    async close() {
      closing = true;
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
  return cachedStore(calls, { budgetBytes: cacheBytes });
}
