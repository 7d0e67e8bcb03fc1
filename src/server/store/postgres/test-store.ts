import pg from 'pg';
import type { DeploymentKey } from '../../../deployments/schema';
import type { RecordStore, StoredRecord } from '../types';
import { openPgStore, openPgWriter } from './pg-store';
import { startCluster, type PgCluster } from './test-cluster';

/**
 * Stores for tests on one throwaway cluster per test process: each call gets a database of
 * its own on it, written through the PostgreSQL writer and read through the store.
 */

let cluster: Promise<PgCluster> | undefined;
let databases = 0;

export function testCluster(): Promise<PgCluster> {
  if (!cluster) {
    cluster = startCluster();
    process.once('beforeExit', () => void cluster?.then((c) => c.destroy()));
  }
  return cluster;
}

export async function createPgTestStore(content: Iterable<readonly [DeploymentKey, StoredRecord[]]>): Promise<RecordStore> {
  const { primary } = await testCluster();
  const name = `records_test_${process.pid}_${++databases}`;
  const admin = new pg.Client(primary.url);
  await admin.connect();
  // The name is made here from digits and letters only; CREATE DATABASE takes no parameters.
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = primary.url.replace(/\/records$/, `/${name}`);
  const writer = await openPgWriter(url);
  try {
    for (const [key, records] of content) await writer.put(key, records);
  } finally {
    await writer.close();
  }
  return openPgStore(url);
}
