import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { deployments } from '../../../deployments/registry';
import { openStoreWriter } from '../sqlite/sqlite-writer';
import type { DeploymentKey } from '../../../deployments/schema';
import { openIndexWriter, type IndexWriter } from './index-writer';
import type { IndexRows } from './index-writer-worker';
import { openPools, parseStoreUrl, type PgPools } from './pg-pool';
import { changesChannel, pgSchemaVersion, pgTable } from './pg-schema';
import { storedOf } from './pg-writer';

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
/** The pause before the primary is listened to again after the connection was lost. */
const relistenMs = 5_000;

export interface PgIndex {
  /** The local SQLite store file to serve. */
  readonly path: string;
  /** Resolves once every change committed on the primary when it was called is in the local file. */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

type Cursor = Record<string, number>;

interface StoreMeta {
  readonly id: string;
}

async function storeMeta(pools: PgPools, primary: string): Promise<StoreMeta> {
  const meta = await pools
    .read<{ key: string; value: string }>({ text: `SELECT key, value FROM meta WHERE key IN ('schema', 'store')` })
    .catch((error: Error) => {
      // Only a database without the store's tables (42P01) is not a store; a server out of
      // connections, or down, or refusing the user, says so in its own words.
      if ((error as { code?: string }).code === '42P01')
        throw new Error(`${primary} is not a Records Explorer store (${error.message}).`, { cause: error });
      throw new Error(`${primary} could not be read: ${error.message.replace(/\.$/, '')}.`, { cause: error });
    });
  const values = new Map(meta.rows.map((row) => [row.key, row.value]));
  if (values.get('schema') !== pgSchemaVersion())
    throw new Error(
      `${primary} is not a Records Explorer store of this version (store schema ${values.get('schema') ?? 'missing'}, expected ${pgSchemaVersion()}).`,
    );
  return { id: values.get('store')! };
}

const cursorPath = (path: string) => `${path}.cursor.json`;

function readCursor(path: string): Cursor | undefined {
  try {
    return JSON.parse(readFileSync(cursorPath(path), 'utf8')) as Cursor;
  } catch {
    return undefined;
  }
}

/** Written after the changes it counts have committed: a crash in between only makes the next run apply them again, which changes nothing. */
function writeCursor(path: string, cursor: Cursor): void {
  const file = cursorPath(path);
  writeFileSync(`${file}.new`, JSON.stringify(cursor));
  renameSync(`${file}.new`, file);
}

type PutRows = (key: DeploymentKey, rows: IndexRows['rows']) => number | Promise<number>;

/** Applies every change past `cursor` (which it moves on), chunk by chunk; the number of records written. */
async function applyChanges(pools: PgPools, put: PutRows, cursor: Cursor, chunkRows: number, onChunk: () => void): Promise<number> {
  let written = 0;
  for (const deployment of deployments) {
    const { key } = deployment;
    for (;;) {
      // The number as text (a bigint is no JS number), named apart so the order is by the number.
      const { rows } = await pools.read<{ doc: string; extra: string; number: string }>({
        text: `SELECT doc, extra, seq::text AS number FROM ${pgTable(deployment)} WHERE seq > $1 ORDER BY seq LIMIT $2`,
        values: [cursor[key] ?? 0, chunkRows],
      });
      if (rows.length === 0) break;
      written += await put(key, rows);
      cursor[key] = Number(rows[rows.length - 1]!.number);
      onChunk();
      if (rows.length < chunkRows) break;
    }
  }
  return written;
}

function removeFiles(path: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm', '.cursor.json', '.cursor.json.new']) rmSync(path + suffix, { force: true });
}

/** Builds the index beside its final name from everything the store holds, and moves it into place when whole. */
async function build(pools: PgPools, path: string, chunkRows: number, log: (line: string) => void): Promise<void> {
  const building = `${path}.building`;
  removeFiles(building);
  const started = Date.now();
  const cursor: Cursor = {};
  const writer = openStoreWriter(building, { bulk: true });
  let written: number;
  try {
    const put = (key: DeploymentKey, rows: IndexRows['rows']) => writer.put(key, rows.map(storedOf));
    written = await applyChanges(pools, put, cursor, chunkRows, () => undefined);
    writer.close();
  } catch (error) {
    try {
      writer.close();
    } catch {
      // The build failed already; its files go regardless.
    }
    removeFiles(building);
    throw error;
  }
  writeCursor(path, cursor);
  renameSync(building, path);
  log(`built the local index ${path} from PostgreSQL: ${written} records in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export async function openPgIndex(
  storeUrl: string,
  { dir, pollMs = 1000, chunkRows = 5000, log = (line) => console.error(`records: ${line}`), onApplied }: PgIndexOptions,
): Promise<PgIndex> {
  const target = parseStoreUrl(storeUrl);
  const pools = openPools(target, { size: 2 });
  let writer: IndexWriter;
  let path: string;
  let cursor: Cursor;
  try {
    const meta = await storeMeta(pools, target.primary);
    mkdirSync(dir, { recursive: true });
    path = join(dir, `${meta.id}.db`);
    const existing = existsSync(path) ? readCursor(path) : undefined;
    if (!existing) {
      removeFiles(path);
      await build(pools, path, chunkRows, log);
    }
    try {
      writer = await openIndexWriter(path);
    } catch (error) {
      // An index of another version of the project (its store schema): built again.
      if (!(error as Error).message.includes('store schema')) throw error;
      removeFiles(path);
      await build(pools, path, chunkRows, log);
      writer = await openIndexWriter(path);
    }
    cursor = readCursor(path)!;
  } catch (error) {
    await pools.close();
    throw error;
  }

  let closed = false;
  let waiters: { target: Map<string, number>; resolve: () => void }[] = [];
  const settle = () => {
    waiters = waiters.filter((waiter) => {
      const done = [...waiter.target].every(([key, seq]) => (cursor[key] ?? 0) >= seq);
      if (done) waiter.resolve();
      return !done;
    });
  };
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let noticed = 0;
  let pollAgain = false;
  const poll = async () => {
    try {
      const written = await applyChanges(
        pools,
        (key, rows) => writer.put(key, rows),
        cursor,
        chunkRows,
        () => writeCursor(path, cursor),
      );
      if (failing) log(`the local index ${path} follows PostgreSQL again`);
      failing = false;
      if (written > 0) {
        noticed = 0;
        onApplied?.();
      }
      settle();
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
  let listener: pg.Client | undefined;
  let relisten: NodeJS.Timeout | undefined;
  let listening = true;
  const listen = () => {
    const client = new pg.Client({ connectionString: target.primary, connectionTimeoutMillis: relistenMs });
    listener = client;
    const lost = (error?: Error) => {
      if (closed || listener !== client) return;
      listener = undefined;
      client.end().catch(() => undefined);
      if (listening)
        log(
          `not notified of commits by the primary (${error?.message ?? 'connection closed'}); polling every ${pollMs / 1000} s meanwhile`,
        );
      listening = false;
      relisten = setTimeout(listen, relistenMs);
    };
    client.on('notification', () => wake(true));
    client.on('error', lost);
    client.on('end', () => lost());
    client
      .connect()
      .then(() => client.query(`LISTEN ${changesChannel}`))
      .then(() => {
        listening = true;
        // A commit may have come while not listening.
        wake(false);
      }, lost);
  };
  listen();

  return {
    path,
    async caughtUp() {
      // The primary's newest numbers now, per deployment; the index has caught up once it is past them.
      const client = await pools.primary.connect();
      const target = new Map<string, number>();
      try {
        for (const deployment of deployments) {
          const { key } = deployment;
          const { rows } = await client.query<{ seq: string | null }>(`SELECT max(seq)::text AS seq FROM ${pgTable(deployment)}`);
          if (rows[0]!.seq !== null) target.set(key, Number(rows[0]!.seq));
        }
      } finally {
        client.release();
      }
      await new Promise<void>((resolve) => {
        waiters.push({ target, resolve });
        settle();
      });
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      clearTimeout(relisten);
      await listener?.end().catch(() => undefined);
      await running;
      await writer.close();
      await pools.close();
    },
  };
}
