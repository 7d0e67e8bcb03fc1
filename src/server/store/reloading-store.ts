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
 * it. A path that cannot be opened is retried with a growing pause while the old generation
 * goes on serving.
 */

interface Identity {
  readonly inode: number;
  readonly device: number;
  readonly revision: string;
}

interface Generation {
  readonly store: RecordStore;
  readonly identity: Identity;
  inFlight: number;
  retired: boolean;
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
  /** Called when a new generation has replaced the old one (its store opened and warm). */
  readonly onGeneration?: (generation: number) => void;
  /** Called after each attempt that could not open the path, with the failures in a row so far. */
  readonly onFailure?: (failures: number) => void;
}

export async function reloadingStore(
  path: string,
  open: (path: string) => Promise<RecordStore>,
  options: ReloadOptions = {},
): Promise<RecordStore & { readonly generations: number }> {
  const checkMs = options.checkMs ?? 1_000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const log = options.log ?? ((line: string) => console.error(`records: ${line}`));

  const identity = identityOf(path, undefined, log);
  let current: Generation = { store: await open(path), identity, inFlight: 0, retired: false };
  let generations = 1;
  let closed = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;

  async function retire(generation: Generation) {
    generation.retired = true;
    if (generation.inFlight === 0) await generation.store.close().catch(() => undefined);
  }

  function schedule(delay: number) {
    if (closed) return;
    timer = setTimeout(() => void check(), delay);
    timer.unref();
  }

  async function check() {
    let identity: Identity;
    let store: RecordStore;
    try {
      identity = identityOf(path, current.identity, log);
      if (sameIdentity(identity, current.identity)) {
        if (failures > 0) log(`${path} can be opened again`);
        failures = 0;
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
    current = { store, identity, inFlight: 0, retired: false };
    generations++;
    options.onGeneration?.(generations);
    void retire(old);
    schedule(checkMs);
  }
  schedule(checkMs);

  /** Runs one call on the generation current when it starts, holding that generation open until it ends. */
  async function within<T>(work: (store: RecordStore) => Promise<T>): Promise<T> {
    const generation = current;
    generation.inFlight++;
    try {
      return await work(generation.store);
    } finally {
      generation.inFlight--;
      if (generation.retired && generation.inFlight === 0) await generation.store.close().catch(() => undefined);
    }
  }

  return {
    get revision() {
      return current.store.revision;
    },
    get generations() {
      return generations;
    },
    search: (key, criteria) => within((store) => store.search(key, criteria)),
    // Every generation is opened the same way: each has `page` or none has.
    ...(current.store.page && {
      page: (key, criteria, rendering) => within((store) => store.page!(key, criteria, rendering)),
    }),
    facets: (key, criteria, requests) => within((store) => store.facets(key, criteria, requests)),
    get: (key, repoId) => within((store) => store.get(key, repoId)),
    fulltext: (key, repoId) => within((store) => store.fulltext(key, repoId)),
    count: (key) => within((store) => store.count(key)),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await current.store.close();
    },
  };
}
