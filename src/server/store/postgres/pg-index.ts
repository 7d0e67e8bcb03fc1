import { listenForCommits } from './commit-listener';
import { applyChanges, newestChanges, openIndexFile, writeCursor, type Cursor, type OpenedIndex, type PutRows } from './index-file';
import { openPools, parseStoreUrl } from './pg-pool';

/**
 * A server's local index of the PostgreSQL store: a SQLite store file (the project's own
 * store and engine, so the same totals, ranking and facets as a SQLite mirror by
 * construction) that follows the store's committed changes by their change sequence
 * (pg-schema.ts). Built from PostgreSQL when missing; then the rows whose number is past the
 * last one applied are read, from a replica when there is one (the primary when none
 * answers), and written with the SQLite store's writer on a thread of its own
 * (index-writer.ts), one transaction per deployment and chunk: at once when the primary
 * notifies a commit (`LISTEN`), and every `pollMs` whether or not it does. A replica may
 * replay a notified commit a moment later, so after a notification that found nothing new it
 * is asked again every 50 ms for a while. Searches read only the local file, so a dead
 * replica or primary fails no request: the index stops advancing until one answers again.
 */

export interface PgIndexOptions {
  /** The folder the index files live in (`--index-dir`); one file per store. */
  readonly dir: string;
  /** How often PostgreSQL is asked for changes. */
  readonly pollMs?: number;
  /** Rows read and written per transaction (tests make it small, so chunks follow chunks). */
  readonly chunkRows?: number;
  readonly log?: (line: string) => void;
  /** Called after changes are committed to the local file (the server then looks at it at once). */
  readonly onApplied?: () => void;
}

/** Polls, 50 ms apart, after a notification while the replica read has not yet replayed it. */
const pollsAfterNotice = 40;
export interface PgIndex {
  /** The local SQLite store file to serve. */
  readonly path: string;
  /** Resolves once every change committed on the primary when it was called is in the local file. */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

/** Callers waiting for the cursor to pass the change numbers they were given, per deployment. */
class CursorWaiters {
  #waiting: { target: ReadonlyMap<string, number>; resolve: () => void }[] = [];

  constructor(private readonly cursor: Cursor) {}

  wait(target: ReadonlyMap<string, number>): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push({ target, resolve });
      this.settle();
    });
  }

  /** Resolves every caller whose numbers the cursor has passed. */
  settle(): void {
    this.#waiting = this.#waiting.filter((waiter) => {
      const done = [...waiter.target].every(([key, seq]) => (this.cursor[key] ?? 0) >= seq);
      if (done) waiter.resolve();
      return !done;
    });
  }
}

export async function openPgIndex(
  storeUrl: string,
  { dir, pollMs = 1000, chunkRows = 5000, log = (line) => console.error(`records: ${line}`), onApplied }: PgIndexOptions,
): Promise<PgIndex> {
  const target = parseStoreUrl(storeUrl);
  const pools = openPools(target, { size: 2 });
  let opened: OpenedIndex;
  try {
    opened = await openIndexFile(pools, target.primary, dir, chunkRows, log);
  } catch (error) {
    await pools.close();
    throw error;
  }
  const { path, writer, cursor } = opened;

  let closed = false;
  const waiters = new CursorWaiters(cursor);
  const put: PutRows = (key, rows) => writer.put(key, rows);
  const saveCursor = () => writeCursor(path, cursor);
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let noticed = 0;
  let pollAgain = false;
  const poll = async () => {
    try {
      const written = await applyChanges(pools, put, cursor, chunkRows, saveCursor);
      if (failing) log(`the local index ${path} follows PostgreSQL again`);
      failing = false;
      if (written > 0) {
        noticed = 0;
        onApplied?.();
      }
      waiters.settle();
    } catch (error) {
      if (!failing)
        log(`the local index ${path} cannot read PostgreSQL changes (${(error as Error).message}); serving what it holds and trying again`);
      failing = true;
    }
  };
  const tick = () => {
    clearTimeout(timer);
    running = poll().finally(() => {
      running = undefined;
      if (closed) return;
      if (pollAgain) {
        pollAgain = false;
        tick();
      } else if (noticed > 0) {
        noticed--;
        timer = setTimeout(tick, 50);
      } else timer = setTimeout(tick, pollMs);
    });
  };
  tick();

  /** Reads now, or right after the read under way; after a notified commit, again shortly until it is read. */
  const wake = (notified: boolean) => {
    if (closed) return;
    if (notified) noticed = pollsAfterNotice;
    if (running) pollAgain = true;
    else tick();
  };
  const listener = listenForCommits(target.primary, { pollMs, log, wake });

  return {
    path,
    async caughtUp() {
      await waiters.wait(await newestChanges(pools));
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await listener.close();
      await running;
      await writer.close();
      await pools.close();
    },
  };
}
