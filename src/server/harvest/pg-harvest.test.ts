import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { openPgTestStore } from '../store/postgres/store.test-support';
import { postgresUnavailable, startCluster, type PgCluster } from '../store/postgres/cluster.test-support';
import { openStoreWriter } from '../store/sqlite/sqlite';
import { harvest, type HarvestOptions } from './harvest';
import { servedRecords, serveStore, startProxy, type TestProxy, type TestSource } from './source.test-support';

/** `records harvest --store postgres://…`: the same harvest into the PostgreSQL store, resume point included. */

const unavailable = postgresUnavailable();
if (unavailable) console.log(`PostgreSQL harvest tests skipped: ${unavailable}`);

const dc1 = deploymentByKey('DC1')!;
const dir = mkdtempSync(join(tmpdir(), 'records-pg-harvest-'));
const sourcePath = join(dir, 'source.db');
let source: TestSource;
let proxy: TestProxy;
let cluster: PgCluster;

describe.skipIf(unavailable)('harvest into PostgreSQL', () => {
  beforeAll(async () => {
    const writer = openStoreWriter(sourcePath);
    writer.put('DC1', generateRecords(dc1, 1500, { seed: 9 }));
    writer.close();
    source = await serveStore(sourcePath);
    proxy = await startProxy(source.url);
    cluster = await startCluster();
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await source?.close();
    await cluster?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const options = (): HarvestOptions => ({
    deployment: dc1,
    baseUrl: `${proxy.url}${dc1.basePath}`,
    dbPath: '',
    storeUrl: cluster.primary.url,
    userAgent: 'records-explorer-test',
    batchRecords: 500,
  });

  it('mirrors every record, keeps its resume point in the store, and fetches only what is new next time', async () => {
    const first = await harvest(options());
    expect(first).toMatchObject({ received: 1500, added: 1500, complete: true, resumed: false });
    const store = await openPgTestStore(cluster.primary.url);
    try {
      expect(await store.count('DC1')).toBe(1500);
      for (const [id, record] of servedRecords(sourcePath, dc1, proxy.url))
        expect((await store.get('DC1', id))?.record, id).toEqual(record);
    } finally {
      await store.close();
    }
    const client = new pg.Client(cluster.primary.url);
    await client.connect();
    const state = await client.query<{ harvested: string }>('SELECT harvested::text FROM harvest_state');
    await client.end();
    expect(state.rows).toEqual([{ harvested: '1500' }]);

    const again = await harvest(options());
    expect(again.resumed).toBe(true);
    expect(again.added).toBe(0);
    expect(again.received).toBeLessThan(1500);
  });
});
