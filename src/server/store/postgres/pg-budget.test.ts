import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import { StoreOverloaded } from '../types';
import { openPools, parseStoreUrl } from './pg-pool';
import { openPgStore, openPgWriter } from './pg-store';
import { postgresUnavailable, startCluster, type PgCluster } from './test-cluster';

/**
 * The PostgreSQL store within its pool and its budget: a facets request holds one
 * connection; a wait for a busy pool, or a server with no connection to spare, is 503 (the
 * server is not taken for dead); past the budget the server itself stops the statement, so
 * nothing runs on after the 503; a primary lost during an import is one sentence.
 */

const unavailable = postgresUnavailable();
const lit = deploymentByKey('LIT')!;
const bin = fileURLToPath(new URL('../../../../bin/records.js', import.meta.url));

describe.skipIf(unavailable)('the PostgreSQL store within its pool and budget', () => {
  let cluster: PgCluster;
  let admin: pg.Client;

  beforeAll(async () => {
    cluster = await startCluster();
    const writer = await openPgWriter(cluster.primary.url);
    await writer.put('LIT', generateRecords(lit, 300, { seed: 3, startId: 1 }));
    await writer.close();
    admin = new pg.Client({ connectionString: cluster.primary.url });
    await admin.connect();
  }, 120_000);

  afterAll(async () => {
    await admin?.end().catch(() => undefined);
    await cluster?.destroy();
  });

  /** Connections to the store's database other than the admin's, and what they run. */
  const others = async () =>
    (
      await admin.query<{ state: string; query: string }>(
        `SELECT state, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      )
    ).rows;

  it('counts the facets of a request on one connection', async () => {
    const store = await openPgStore(cluster.primary.url, { poolSize: 8 });
    try {
      const requests = lit.facets.map(({ name }) => ({ name, limit: 10, offset: 0, sort: 'count' as const }));
      const criteria = { text: [], exact: [], dates: [], sort: 'relevance', order: 'desc', offset: 0, limit: 20 } as const;
      const result = await store.facets('LIT', criteria, requests);
      expect(result.total).toBe(300);
      expect(await others()).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('answers a wait for a busy pool as overloaded, not as a dead server', async () => {
    const pools = openPools(parseStoreUrl(cluster.primary.url), { size: 1, waitMs: 200 });
    const held = await pools.primary.connect();
    try {
      const outcome = await pools.read({ text: 'SELECT 1' }).then(
        () => 'answered',
        (error: unknown) => error,
      );
      expect(outcome).toBeInstanceOf(StoreOverloaded);
    } finally {
      held.release();
      await pools.close();
    }
  });

  it('stops a statement on the server when the budget runs out', async () => {
    const pools = openPools(parseStoreUrl(cluster.primary.url), { size: 2 });
    try {
      const outcome = await pools
        .withBudget(300, (read) => read({ text: 'SELECT pg_sleep(30)' }))
        .then(
          () => 'answered',
          (error: unknown) => error,
        );
      expect(outcome).toBeInstanceOf(StoreOverloaded);
      // Nothing of the request runs on, and its connection is back in the pool for the next.
      expect((await others()).filter((row) => row.query.includes('pg_sleep') && row.state === 'active')).toEqual([]);
      expect((await pools.withBudget(5_000, (read) => read<{ n: number }>({ text: 'SELECT 1 AS n' }))).rows[0]!.n).toBe(1);
    } finally {
      await pools.close();
    }
  });

  it('answers a server with no connection to spare as overloaded', async () => {
    const hogs: pg.Client[] = [];
    try {
      // Take every connection the server has.
      for (;;) {
        const hog = new pg.Client({ connectionString: cluster.primary.url });
        hog.on('error', () => undefined);
        const refused = await hog.connect().then(
          () => undefined,
          (error: unknown) => error as { code?: string },
        );
        if (refused) {
          expect(refused.code).toBe('53300');
          break;
        }
        hogs.push(hog);
      }
      const pools = openPools(parseStoreUrl(cluster.primary.url), { size: 2 });
      try {
        const outcome = await pools.read({ text: 'SELECT 1' }).then(
          () => 'answered',
          (error: unknown) => error,
        );
        expect(outcome).toBeInstanceOf(StoreOverloaded);
      } finally {
        await pools.close();
      }
    } finally {
      await Promise.all(hogs.map((hog) => hog.end().catch(() => undefined)));
    }
  }, 60_000);

  it('ends an import whose primary crashes in one sentence, without a stack', async () => {
    const child = spawn(process.execPath, [bin, 'generate', 'LIT', '200000', '--store', cluster.primary.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // Once its rows are going in, the primary stops as a crash would.
    while (!(await others()).some((row) => row.query.includes('INSERT INTO lit'))) await new Promise((resolve) => setTimeout(resolve, 50));
    await admin.end();
    await cluster.primary.stop('immediate');
    expect(await exited).toBe(1);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toMatch(/^records: Cannot write to the store \(.+\); nothing of this run was kept\.\n$/);
  }, 120_000);
});
