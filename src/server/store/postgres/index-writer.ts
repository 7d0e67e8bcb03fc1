import type { Worker } from 'node:worker_threads';
import type { DeploymentKey } from '../../../deployments/schema';
import { bundleThread } from '../../bundle-thread.js';
import { bundledModule } from '../../module-bundle.js';
import type { IndexRows, IndexWriterReply } from './index-writer-worker';

/**
 * The writer that applies PostgreSQL's changes to a served local index, on a thread of its
 * own: the SQLite writer's transaction (postings updated in place) holds its thread for as
 * long as the write takes, which grows with the store, and on the server's main thread no
 * request would be answered meanwhile (keep-alive connections reset, requests wait past
 * their timeouts). One put() at a time; a thread that dies fails its put(), and the next
 * put() opens the file on a new one.
 */

export interface IndexWriter {
  /** Writes the rows in one transaction; resolves with the number written. */
  put(key: DeploymentKey, rows: IndexRows['rows']): Promise<number>;
  close(): Promise<void>;
}

const workerEntry = new URL('./index-writer-worker.ts', import.meta.url);

/** Opens `path` for writing on a thread; rejects with the writer's own error (another store schema, say). */
export async function openIndexWriter(path: string): Promise<IndexWriter> {
  const script = await bundledModule(workerEntry);
  let thread: Worker | undefined;
  let reply: ((message: IndexWriterReply) => void) | undefined;
  let failed: ((error: Error) => void) | undefined;

  const start = () =>
    new Promise<Worker>((resolve, reject) => {
      const worker = bundleThread(script, { workerData: { path } });
      reply = (message) => ('error' in message ? reject(new Error(message.error)) : resolve(worker));
      failed = reject;
      worker.on('message', (message: IndexWriterReply) => reply?.(message));
      worker.on('error', (error) => failed?.(error));
      worker.on('exit', (code) => {
        if (thread === worker) thread = undefined;
        failed?.(new Error(`the index writer's thread ended (${code})`));
      });
    });

  thread = await start();
  return {
    async put(key, rows) {
      thread ??= await start();
      const worker = thread;
      return new Promise<number>((resolve, reject) => {
        reply = (message) => ('error' in message ? reject(new Error(message.error)) : resolve('written' in message ? message.written : 0));
        failed = reject;
        worker.postMessage({ key, rows } satisfies IndexRows);
      });
    },
    async close() {
      const worker = thread;
      thread = undefined;
      if (!worker) return;
      failed = undefined;
      await new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.postMessage('close');
      });
    },
  };
}
