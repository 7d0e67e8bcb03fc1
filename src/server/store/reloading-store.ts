import { identityOf, PathWatch, type WatchOptions } from './path-watch';
import { releaseLog } from './sqlite/store-log';
import { Generations, type GenerationEvents } from './served-generations';
import type { RecordStore } from './types';

/**
 * A served database that changes under a running server: an import committed into it, or
 * another file moved over its path. Every answer comes from one generation of the data (one
 * store opened on one file at one revision, with its caches); when the file or its revision
 * changes, a new generation is opened beside the old, new requests go to it once it is
 * ready (its workers warm: `open` resolves only then, pooled-store.ts), and the old one closes when its last request has finished, taking its caches with
 * it. A store whose facet values are still being read when it opens (`facetsWarm`) takes the
 * searches at once and the facets once they are read; until then the old generation answers
 * them. A path that cannot be opened is retried with a growing pause while the old generation
 * goes on serving.
 *
 * Once a generation serves alone (every older one closed), its workers move their snapshots
 * off the file's write-ahead log (sqlite/snapshot-move.ts) and the log is emptied: otherwise
 * each generation, opened while the one before still pinned the log, would pin it in turn,
 * and the log would grow with every write for as long as the file is served. A move a writer
 * kept busy is asked again at the next check.
 *
 * In parts: the generations open at once and their lives (served-generations.ts), and the
 * look at the path that opens a new one (path-watch.ts).
 */

export interface ReloadOptions extends WatchOptions, GenerationEvents {
  readonly log?: (line: string) => void;
}

/** A reloading store: the current generation's, with what the served file adds. */
export type ReloadingStore = RecordStore & {
  readonly generations: number;
  /** The revision facets are answered from (behind `revision` while a new generation reads its facet values). */
  readonly facetsRevision: string;
  /** Looks at the path now rather than at the next check. */
  checkNow(): void;
};

export async function reloadingStore(
  path: string,
  open: (path: string) => Promise<RecordStore>,
  options: ReloadOptions = {},
): Promise<ReloadingStore> {
  const log = options.log ?? ((line: string) => console.error(`records: ${line}`));
  const identity = identityOf(path, undefined, log);
  const first = await open(path);
  try {
    await first.facetsWarm;
  } catch (error) {
    await first.close();
    throw error;
  }
  // The one left after a generation closes may now move its snapshots off the log.
  const generations: Generations = new Generations(first, identity, options, () => watch.schedule(0));
  const watch = new PathWatch(path, open, generations, log, options);
  watch.schedule(options.checkMs ?? 1_000);
  return servedStore(generations, watch, () => {
    const setAside = releaseLog(path);
    if (setAside) log(setAside);
  });
}

/** The store the server is given: each call on the generation that answers it. */
function servedStore(generations: Generations, watch: PathWatch, closed: () => void): ReloadingStore {
  const within = <T>(work: (store: RecordStore) => Promise<T>, facets = false) =>
    generations.within(work, facets ? generations.facetsFrom : generations.current);
  return {
    get revision() {
      return generations.current.store.revision;
    },
    get generations() {
      return generations.count;
    },
    get facetsRevision() {
      return generations.facetsFrom.store.revision;
    },
    search: (key, criteria) => within((store) => store.search(key, criteria)),
    // Every generation is opened the same way: each has `page` or none has.
    ...(generations.current.store.page && {
      page: (key, criteria, rendering) => within((store) => store.page!(key, criteria, rendering)),
    }),
    facets: (key, criteria, requests) => within((store) => store.facets(key, criteria, requests), true),
    get: (key, repoId) => within((store) => store.get(key, repoId)),
    fulltext: (key, repoId) => within((store) => store.fulltext(key, repoId)),
    count: (key) => within((store) => store.count(key)),
    suggest: (key, q) => within((store) => store.suggest?.(key, q) ?? Promise.resolve(undefined)),
    // Counted as the facets are, by the generation whose facet values are read.
    complete: (key, request) => within((store) => store.complete?.(key, request) ?? Promise.resolve([]), true),
    checkNow() {
      watch.schedule(0);
    },
    async close() {
      watch.stop();
      await generations.close();
      closed();
    },
  };
}
