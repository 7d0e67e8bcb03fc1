import type { SharedPart } from '../engine';
import type { StoreReply, ToWorker } from '../store-worker';
import { borrowThread, type Thread } from './threads';

/**
 * The facet values (seconds to read at a million records) are read once, by a worker of
 * their own that hands them over on shared memory and closes the file: the pool holds one
 * copy of them, not one per worker, and a server whose data changed answers searches from the
 * new data while the previous pool still answers facets (reloading-store.ts). After them it
 * makes the type-ahead tables and then each deployment's "Did you mean" vocabulary, handing
 * each over as it is made, so facets do not wait for type-ahead, and no worker samples the
 * records' text for its own vocabulary. Each promise settles once its part is handed over, or
 * once the reader ended without it: each worker then makes its own on first use. The reader's
 * thread is given back for later generations (threads.ts) once it has handed everything over.
 */
export interface ReadAhead {
  readonly reader: Thread;
  /** The facet values (and their A–Z orders) are handed over. */
  readonly facetsWarm: Promise<void>;
  /** The type-ahead tables are handed over. */
  readonly completionsWarm: Promise<void>;
  /** The vocabularies for suggestions are handed over. */
  readonly wordsWarm: Promise<void>;
}

export function readFacetsAhead(
  script: URL,
  path: string,
  log: (line: string) => void,
  closing: () => boolean,
  adopt: (part: SharedPart) => void,
): ReadAhead {
  const reader = borrowThread(script);
  const worker = reader.worker;
  const parts = ['facets', 'completions', 'words'] as const;
  const settle = new Map<(typeof parts)[number], () => void>();
  const [facetsWarm, completionsWarm, wordsWarm] = parts.map((part) => new Promise<void>((resolve) => settle.set(part, resolve)));
  const settleAll = () => {
    for (const resolve of settle.values()) resolve();
  };
  worker.on('message', (reply: StoreReply) => {
    if (!('shared' in reply)) return;
    if (!closing()) adopt(reply.shared);
    const part = parts.find((name) => name in reply.shared)!;
    if (part === 'words') void reader.giveBack();
    settle.get(part)!();
  });
  worker.on('error', (error) => {
    if (!closing()) log(`the facet values of ${path} could not be read ahead (${error.message}); each worker reads them on first use`);
  });
  worker.on('exit', settleAll);
  worker.postMessage({ open: { path, role: 'facets' } } satisfies ToWorker);
  return { reader, facetsWarm: facetsWarm!, completionsWarm: completionsWarm!, wordsWarm: wordsWarm! };
}
