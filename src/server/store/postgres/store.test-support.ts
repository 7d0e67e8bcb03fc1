import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { DeploymentKey } from '../../../deployments/schema';
import { openStore } from '../sqlite/sqlite';
import type { StoredRecord } from '../types';
import { openPgStore, type PgStore } from './pg-store';
import { openPgRecordWriter } from './pg-writer';

/**
 * Stores for tests on the projects' throwaway cluster (global-setup.ts): each call gets a
 * database of its own on the primary, written through the PostgreSQL writer, and a local
 * index in a folder of its own; with `replica`, the index follows the streaming replica.
 */

let databases = 0;

const withDatabase = (url: string, name: string) => url.replace(/\/records$/, `/${name}`);

/** Waits until `replica` has replayed everything the primary has written so far. */
export async function caughtUp(primaryUrl: string, replicaUrl: string): Promise<void> {
  const query = async (url: string, sql: string) => {
    const client = new pg.Client(url);
    await client.connect();
    try {
      return (await client.query<{ lsn: string }>(sql)).rows[0]!.lsn;
    } finally {
      await client.end();
    }
  };
  const target = await query(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS lsn');
  for (let i = 0; i < 200; i++) {
    const behind = await query(replicaUrl, `SELECT (pg_last_wal_replay_lsn() < '${target}'::pg_lsn)::text AS lsn`);
    if (behind === 'false') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the replica did not catch up within 10 s');
}

/**
 * The PostgreSQL store at `storeUrl` served from a local index in a temporary folder, removed
 * on close; in chunks of 100 rows, so an index is built and follows in several transactions.
 */
export async function openPgTestStore(storeUrl: string, { pollMs = 200 } = {}): Promise<PgStore> {
  const indexDir = mkdtempSync(join(tmpdir(), 'records-pg-index-'));
  try {
    const store = await openPgStore(storeUrl, {
      indexDir,
      pollMs,
      chunkRows: 100,
      open: async (path) => openStore(path),
      log: () => undefined,
    });
    return {
      ...store,
      get revision() {
        return store.revision;
      },
      async close() {
        await store.close();
        rmSync(indexDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(indexDir, { recursive: true, force: true });
    throw error;
  }
}

export async function createPgTestStore(
  content: Iterable<readonly [DeploymentKey, StoredRecord[]]>,
  { replica = process.env.RECORDS_TEST_STORE === 'postgres-replica' } = {},
): Promise<PgStore> {
  const cluster = inject('pgCluster');
  const name = `records_test_${process.pid}_${++databases}`;
  const admin = new pg.Client(cluster.primary);
  await admin.connect();
  // The name is made here from digits and letters only; CREATE DATABASE takes no parameters.
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const primary = withDatabase(cluster.primary, name);
  const writer = await openPgRecordWriter(primary);
  try {
    for (const [key, records] of content) await writer.put(key, records);
  } finally {
    await writer.close();
  }
  if (!replica) return openPgTestStore(primary);
  const replicaUrl = withDatabase(cluster.replica, name);
  // Replay is cluster-wide: asked through the replica's own database, since the new one
  // exists there only once its CREATE DATABASE is replayed.
  await caughtUp(primary, cluster.replica);
  return openPgTestStore(`${primary},${replicaUrl}`);
}
