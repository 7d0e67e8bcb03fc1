import { Worker } from 'node:worker_threads';
import type { SharedFacets } from '../engine';
import type { StoreReply, WorkerSettings } from '../store-worker';

/**
 * The facet values (seconds to read at a million records) are read once, by a worker of
 * their own that hands them over on shared memory and ends: the pool holds one copy of them,
 * not one per worker, and a server whose data changed answers searches from the new data
 * while the previous pool still answers facets (reloading-store.ts). `facetsWarm` settles
 * once they are handed over, or once the reader ended without them: each worker then reads
 * its own on first use.
 */
export function readFacetsAhead(
  script: URL,
  path: string,
  log: (line: string) => void,
  closing: () => boolean,
  adopt: (facets: SharedFacets) => void,
): { readonly reader: Worker; readonly facetsWarm: Promise<void> } {
  const reader = new Worker(script, { workerData: { path, role: 'facets' } satisfies WorkerSettings });
  const facetsWarm = new Promise<void>((resolve) => {
    reader.on('message', (reply: StoreReply) => {
      if (!('facets' in reply) || closing()) return;
      adopt(reply.facets);
      resolve();
    });
    reader.on('error', (error) => {
      if (!closing()) log(`the facet values of ${path} could not be read ahead (${error.message}); each worker reads them on first use`);
    });
    reader.on('exit', () => resolve());
  });
  return { reader, facetsWarm };
}
