import { parentPort, workerData } from 'node:worker_threads';
import { openStoreWriter } from '../sqlite/sqlite-writer';
import type { StoreWriter } from '../types';
import type { DeploymentKey } from '../../../deployments/schema';
import { storedOf } from './pg-writer';

/** The local index's writer on a thread of its own (index-writer.ts): one message, one put(). */

export interface IndexRows {
  readonly key: DeploymentKey;
  /** Rows as PostgreSQL holds them (pg-schema.ts): the record and what is kept beside it, as JSON text. */
  readonly rows: readonly { readonly doc: string; readonly extra: string }[];
}

export type IndexWriterReply = { ready: true } | { written: number } | { error: string };

const port = parentPort!;
let writer: StoreWriter | undefined;
try {
  writer = openStoreWriter((workerData as { path: string }).path);
  port.postMessage({ ready: true } satisfies IndexWriterReply);
} catch (error) {
  port.postMessage({ error: (error as Error).message } satisfies IndexWriterReply);
  port.close();
}
try {
  // Between writes rather than in the first one, whose time from its commit counts.
  writer?.warm();
} catch {
  // The first write reads what it needs itself.
}
port.on('message', (message: IndexRows | 'close') => {
  if (message === 'close') {
    writer?.close();
    port.close();
    return;
  }
  const { key, rows } = message;
  try {
    const written = writer!.put(key, rows.map(storedOf));
    port.postMessage({ written } satisfies IndexWriterReply);
  } catch (error) {
    port.postMessage({ error: (error as Error).message } satisfies IndexWriterReply);
  }
});
