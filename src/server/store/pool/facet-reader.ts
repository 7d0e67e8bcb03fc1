import type { SharedFacets } from '../engine';
import type { StoreReply, ToWorker } from '../store-worker';
import { borrowThread, type Thread } from './threads';

/**
 * The facet values (seconds to read at a million records) are read once, by a worker of
 * their own that hands them over on shared memory and closes the file: the pool holds one
 * copy of them, not one per worker, and a server whose data changed answers searches from the
 * new data while the previous pool still answers facets (reloading-store.ts). `facetsWarm`
 * settles once they are handed over, or once the reader ended without them: each worker then
 * reads its own on first use. The reader's thread is given back for later generations
 * (threads.ts) once it has handed them over.
 */
export function readFacetsAhead(
  script: URL,
  path: string,
  log: (line: string) => void,
  closing: () => boolean,
  adopt: (facets: SharedFacets) => void,
): { readonly reader: Thread; readonly facetsWarm: Promise<void> } {
  const reader = borrowThread(script);
  const worker = reader.worker;
  const facetsWarm = new Promise<void>((resolve) => {
    worker.on('message', (reply: StoreReply) => {
      if (!('facets' in reply)) return;
      void reader.giveBack();
      if (!closing()) adopt(reply.facets);
      resolve();
    });
    worker.on('error', (error) => {
      if (!closing()) log(`the facet values of ${path} could not be read ahead (${error.message}); each worker reads them on first use`);
    });
    worker.on('exit', () => resolve());
  });
  worker.postMessage({ open: { path, role: 'facets' } } satisfies ToWorker);
  return { reader, facetsWarm };
}
