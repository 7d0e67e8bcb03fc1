import type { DeploymentKey } from '../../../deployments/schema';
import type { StoreReply, ToWorker } from '../store-worker';
import { keptPlaceOf } from './kept-parts';
import type { PackedPart } from './packed-strings';
import { borrowThread, type Thread, type ThreadShelf } from './threads';

/**
 * The facet values (seconds to read at a million records) are read once, by a worker of their
 * own that hands them over on shared memory and closes the file: the pool holds one copy of
 * them, not one per worker, and a server whose data changed answers searches from the new data
 * while the previous pool still answers facets (reloading-store.ts). After them it makes each
 * deployment's type-ahead tables and its "Did you mean" vocabulary, deployment after
 * deployment, handing each over as it is made, so facets do not wait for type-ahead, a
 * deployment's suggestions wait for its own vocabulary only, and no worker samples the
 * records' text for its own. What it made is kept for the next reader of the same data (a
 * restart), which reads it instead (kept-parts.ts). It waits after the facet values until told
 * to go on (held-back-work.ts: after the pool's first answers). Each promise settles once its
 * part is handed over, or once the reader ended without it: each worker then makes its own on
 * first use. The reader's thread is given back for later generations (threads.ts) once it has
 * handed everything over.
 */
export interface ReadAhead {
  readonly reader: Thread;
  /**
   * The facet values (and their A–Z orders) are handed over; where they were kept, so are the
   * ranks of repo_ids that follow them in the file, with the number of records: a start's
   * first count then need not count them again (a quarter of a second at a million records).
   */
  readonly facetsWarm: Promise<void>;
  /** The deployment's type-ahead tables, or its vocabulary for suggestions, are handed over. */
  readonly handedOver: (part: 'completions' | 'words', key: DeploymentKey) => Promise<void>;
  /** The reader has handed everything over and closed the file, or ended without. */
  readonly ended: Promise<void>;
  /** Lets the reader go on past the facet values (and the ranks kept with them), where it waits until told. */
  readonly goOn: () => void;
}

export function readFacetsAhead(
  shelf: ThreadShelf,
  path: string,
  log: (line: string) => void,
  closing: () => boolean,
  adopt: (part: PackedPart) => void,
): ReadAhead {
  const reader = borrowThread(shelf);
  const keep = keptPlaceOf(path, shelf.script);
  const worker = reader.worker;
  let ended = false;
  let keptFacets = false;
  const waiting = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const entry = (name: string) => {
    let found = waiting.get(name);
    if (!found) {
      let resolve!: () => void;
      const promise = new Promise<void>((settle) => (resolve = settle));
      waiting.set(name, (found = { promise, resolve }));
      if (ended) resolve();
    }
    return found;
  };
  const end = () => {
    ended = true;
    for (const { resolve } of waiting.values()) resolve();
  };
  worker.on('message', (reply: StoreReply) => {
    if ('sharedAll' in reply) {
      void reader.giveBack();
      return end();
    }
    if (!('shared' in reply)) return;
    const part = reply.shared;
    if (!closing()) adopt(part);
    if (reply.kept && 'facets' in part) log(`facet values read as kept for this data (${keep.file})`);
    if (reply.read) log(`facet values: ${reply.read}`);
    if ('facets' in part) keptFacets = reply.kept;
    if (('facets' in part && !keptFacets) || 'ranks' in part) entry('facets').resolve();
    if ('completions' in part) for (const key of part.completions.keys()) entry(`completions ${key}`).resolve();
    else if ('words' in part) for (const key of part.words.keys()) entry(`words ${key}`).resolve();
  });
  worker.on('error', (error) => {
    if (!closing()) log(`the facet values of ${path} could not be read ahead (${error.message}); each worker reads them on first use`);
  });
  worker.on('exit', end);
  const waitBeforeRest = new Int32Array(new SharedArrayBuffer(4));
  worker.postMessage({ open: { path, role: 'facets', keep, waitBeforeRest } } satisfies ToWorker);
  return {
    reader,
    facetsWarm: entry('facets').promise,
    handedOver: (part, key) => entry(`${part} ${key}`).promise,
    ended: entry('all').promise,
    goOn: () => {
      Atomics.store(waitBeforeRest, 0, 1);
      Atomics.notify(waitBeforeRest, 0);
    },
  };
}
