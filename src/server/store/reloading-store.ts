import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { claimLog } from './sqlite/store-log';
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
 */

interface Identity {
  readonly inode: number;
  readonly device: number;
  readonly revision: string;
}

interface Generation {
  readonly store: RecordStore;
  readonly identity: Identity;
  /** Its number: 1 for the first opened. */
  readonly count: number;
  inFlight: number;
  retired: boolean;
  /** Its store has been closed. */
  closed: boolean;
  /** Its workers' snapshots are off the log, or need not or cannot move. */
  logSettled: boolean;
}

/**
 * The file at `path` as it is now: which file, and the revision its writer left. A file not
 * seen before (another moved over the path) is opened with its own log only (store-log.ts).
 */
function identityOf(path: string, known: Identity | undefined, log: (line: string) => void): Identity {
  const stat = statSync(path);
  if (known?.inode !== stat.ino || known.device !== stat.dev) {
    const setAside = claimLog(path);
    if (setAside) log(setAside);
  }
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'revision'`).get();
    return { inode: stat.ino, device: stat.dev, revision: row?.value ?? 'empty' };
  } finally {
    db.close();
  }
}

const sameIdentity = (a: Identity, b: Identity) => a.inode === b.inode && a.device === b.device && a.revision === b.revision;

export interface ReloadOptions {
  /** How often the path is looked at. */
  readonly checkMs?: number;
  /** The longest pause between attempts on a path that cannot be opened. */
  readonly maxBackoffMs?: number;
  readonly log?: (line: string) => void;
  /** Called when a new generation has replaced the old one (its store opened and warm), for searches and then for facets. */
  readonly onGeneration?: (generation: number, facets: boolean) => void;
  /** Called after each attempt that could not open the path, with the failures in a row so far. */
  readonly onFailure?: (failures: number) => void;
  /** Called when a generation serving alone has moved its snapshots off the write-ahead log and emptied it. */
  readonly onLogReleased?: (generation: number) => void;
}

export async function reloadingStore(
  path: string,
  open: (path: string) => Promise<RecordStore>,
  options: ReloadOptions = {},
): Promise<
  RecordStore & {
    readonly generations: number;
    /** The revision facets are answered from (behind `revision` while a new generation reads its facet values). */
    readonly facetsRevision: string;
    /** Looks at the path now rather than at the next check. */
    checkNow(): void;
  }
> {
  const checkMs = options.checkMs ?? 1_000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const log = options.log ?? ((line: string) => console.error(`records: ${line}`));

  const identity = identityOf(path, undefined, log);
  const first = await open(path);
  try {
    await first.facetsWarm;
  } catch (error) {
    await first.close();
    throw error;
  }
  const newGeneration = (store: RecordStore, identity: Identity, count: number): Generation => {
    const generation = { store, identity, count, inFlight: 0, retired: false, closed: false, logSettled: false };
    live.add(generation);
    return generation;
  };
  /** Generations whose stores are not closed yet. */
  const live = new Set<Generation>();
  let current: Generation = newGeneration(first, identity, 1);
  /** The generation facets are asked of: the current one once its facet values are read. */
  let facetsFrom = current;
  let generations = 1;
  let closed = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let checking = false;
  let checkAgain = false;

  async function retire(generation: Generation) {
    if (generation === current || generation === facetsFrom || generation.retired) return;
    generation.retired = true;
    if (generation.inFlight === 0) await closeGeneration(generation);
  }

  async function closeGeneration(generation: Generation) {
    if (generation.closed) return;
    generation.closed = true;
    await generation.store.close().catch(() => undefined);
    live.delete(generation);
    // The one left may now move its snapshots off the log.
    if (!closed) schedule(0);
  }

  let moving = false;
  /** Moves the current generation's snapshots off the log once it serves alone (in the background: a busy worker may take a while). */
  function settleLog() {
    const generation = current;
    if (moving || generation.logSettled || live.size > 1 || !generation.store.moveSnapshots) return;
    moving = true;
    generation.store
      .moveSnapshots()
      .then(
        (moved) => {
          if (moved === 'busy') return;
          generation.logSettled = true;
          if (moved === 'moved' && !closed) options.onLogReleased?.(generation.count);
        },
        () => {
          generation.logSettled = true;
        },
      )
      .finally(() => {
        moving = false;
      });
  }

  function schedule(delay: number) {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => void checkOnce(), delay);
    timer.unref();
  }

  /** One check at a time; asked for during one, another follows at once. */
  async function checkOnce() {
    if (checking) {
      checkAgain = true;
      return;
    }
    checking = true;
    try {
      await check();
    } finally {
      checking = false;
      if (checkAgain && !closed) {
        checkAgain = false;
        schedule(0);
      }
    }
  }

  async function check() {
    let identity: Identity;
    let store: RecordStore;
    try {
      identity = identityOf(path, current.identity, log);
      if (sameIdentity(identity, current.identity)) {
        if (failures > 0) log(`${path} can be opened again`);
        failures = 0;
        settleLog();
        schedule(checkMs);
        return;
      }
      store = await open(path);
    } catch (error) {
      failures++;
      const delay = Math.min(maxBackoffMs, checkMs * 2 ** failures);
      // Said once per outage, not at every retry.
      if (failures === 1)
        log(`cannot open ${path} (${(error as Error).message}); still serving the data opened before, retrying with growing pauses`);
      options.onFailure?.(failures);
      schedule(delay);
      return;
    }
    // Closed while the new generation was opening: it is never served.
    if (closed) {
      await store.close().catch(() => undefined);
      return;
    }
    if (failures > 0) log(`${path} can be opened again`);
    failures = 0;
    const old = current;
    const generation = newGeneration(store, identity, ++generations);
    current = generation;
    options.onGeneration?.(generation.count, false);
    void retire(old);
    if (store.facetsWarm) {
      const takeFacets = () => {
        if (!closed && !generation.retired) takesFacets(generation);
      };
      store.facetsWarm.then(takeFacets, takeFacets);
    } else takesFacets(generation);
    schedule(checkMs);
  }

  /** Facets are asked of `generation` from now on (a newer one may have taken them already). */
  function takesFacets(generation: Generation) {
    if (generation.count < facetsFrom.count) return;
    const before = facetsFrom;
    facetsFrom = generation;
    options.onGeneration?.(generation.count, true);
    void retire(before);
  }
  schedule(checkMs);

  /** Runs one call on the generation current when it starts (for facets: `facetsFrom`), holding that generation open until it ends. */
  async function within<T>(work: (store: RecordStore) => Promise<T>, generation = current): Promise<T> {
    generation.inFlight++;
    try {
      return await work(generation.store);
    } finally {
      generation.inFlight--;
      if (generation.retired && generation.inFlight === 0) await closeGeneration(generation);
    }
  }

  return {
    get revision() {
      return current.store.revision;
    },
    get generations() {
      return generations;
    },
    get facetsRevision() {
      return facetsFrom.store.revision;
    },
    search: (key, criteria) => within((store) => store.search(key, criteria)),
    // Every generation is opened the same way: each has `page` or none has.
    ...(current.store.page && {
      page: (key, criteria, rendering) => within((store) => store.page!(key, criteria, rendering)),
    }),
    facets: (key, criteria, requests) => within((store) => store.facets(key, criteria, requests), facetsFrom),
    get: (key, repoId) => within((store) => store.get(key, repoId)),
    fulltext: (key, repoId) => within((store) => store.fulltext(key, repoId)),
    count: (key) => within((store) => store.count(key)),
    suggest: (key, q) => within((store) => store.suggest?.(key, q) ?? Promise.resolve(undefined)),
    // Counted as the facets are, by the generation whose facet values are read.
    complete: (key, request) => within((store) => store.complete?.(key, request) ?? Promise.resolve([]), facetsFrom),
    checkNow() {
      schedule(0);
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await Promise.all([...new Set([current, facetsFrom])].map((generation) => generation.store.close()));
    },
  };
}
