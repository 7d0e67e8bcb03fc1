import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deployments } from '../../../deployments/registry';
import type { DeploymentKey } from '../../../deployments/schema';
import { openStoreWriter } from '../sqlite/sqlite-writer';
import { openIndexWriter, type IndexWriter } from './index-writer';
import type { IndexRows } from './index-writer-worker';
import type { PgPools } from './pg-pool';
import { pgSchemaVersion, pgTable } from './pg-schema';
import { storedOf } from './pg-writer';

/**
 * The local index's file (pg-index.ts): which store it follows, the cursor of the changes it
 * holds, how changes past the cursor are applied, and its build from everything the store holds.
 */

export type Cursor = Record<string, number>;

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
export function writeCursor(path: string, cursor: Cursor): void {
  const file = cursorPath(path);
  writeFileSync(`${file}.new`, JSON.stringify(cursor));
  renameSync(`${file}.new`, file);
}

export type PutRows = (key: DeploymentKey, rows: IndexRows['rows']) => number | Promise<number>;

/** Applies every change past `cursor` (which it moves on), chunk by chunk; the number of records written. */
export async function applyChanges(pools: PgPools, put: PutRows, cursor: Cursor, chunkRows: number, onChunk: () => void): Promise<number> {
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

export interface OpenedIndex {
  readonly path: string;
  readonly writer: IndexWriter;
  readonly cursor: Cursor;
}

/** The store's index file in `dir`, built first where it is missing or of another version of the project. */
export async function openIndexFile(
  pools: PgPools,
  primary: string,
  dir: string,
  chunkRows: number,
  log: (line: string) => void,
): Promise<OpenedIndex> {
  const meta = await storeMeta(pools, primary);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${meta.id}.db`);
  const existing = existsSync(path) ? readCursor(path) : undefined;
  if (!existing) {
    removeFiles(path);
    await build(pools, path, chunkRows, log);
  }
  let writer: IndexWriter;
  try {
    writer = await openIndexWriter(path);
  } catch (error) {
    // An index of another version of the project (its store schema): built again.
    if (!(error as Error).message.includes('store schema')) throw error;
    removeFiles(path);
    await build(pools, path, chunkRows, log);
    writer = await openIndexWriter(path);
  }
  return { path, writer, cursor: readCursor(path)! };
}

/** The primary's newest change numbers now, per deployment: the index has caught up with this moment once it is past them. */
export async function newestChanges(pools: PgPools): Promise<Map<string, number>> {
  const client = await pools.primary.connect();
  const newest = new Map<string, number>();
  try {
    for (const deployment of deployments) {
      const { rows } = await client.query<{ seq: string | null }>(`SELECT max(seq)::text AS seq FROM ${pgTable(deployment)}`);
      if (rows[0]!.seq !== null) newest.set(deployment.key, Number(rows[0]!.seq));
    }
  } finally {
    client.release();
  }
  return newest;
}
