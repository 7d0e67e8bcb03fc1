import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import { startServer, type RunningServer } from '../../http/server';
import { buildRecord } from '../../http/test-fixture';
import type { RecordStore } from '../types';
import { parseStoreUrl } from './pg-pool';
import { openPgStore, openPgWriter } from './pg-store';
import { postgresUnavailable, startCluster, type PgCluster } from './test-cluster';
import { caughtUp } from './test-store';

const run = promisify(execFile);
const unavailable = postgresUnavailable();
if (unavailable) console.log(`PostgreSQL store tests skipped: ${unavailable}`);

const lit = deploymentByKey('LIT')!;
const repoRoot = resolve(import.meta.dirname, '../../../..');

describe.skipIf(unavailable)('the PostgreSQL store with a streaming replica', () => {
  let cluster: PgCluster;
  let store: RecordStore;
  let server: RunningServer;

  beforeAll(async () => {
    cluster = await startCluster();
    const writer = await openPgWriter(cluster.primary.url);
    await writer.put('LIT', generateRecords(lit, 600, { seed: 3, startId: 1 }));
    // The same rare word once in a title and once in a description only.
    await writer.put('LIT', [
      buildRecord(lit, {
        id: '900001',
        title: 'Quillwort habitats of alpine lakes',
        description: 'A survey.',
        published: '2001-01-01T00:00:00Z',
      }),
      buildRecord(lit, {
        id: '900002',
        title: 'Alpine lake survey',
        description: 'Notes on quillwort and sedges.',
        published: '2020-01-01T00:00:00Z',
      }),
    ]);
    await writer.close();
    const replica = await cluster.addReplica();
    await caughtUp(cluster.primary.url, replica.url);
    store = await openPgStore(`${cluster.primary.url},${replica.url}`, { poolSize: 2 });
    server = await startServer({ store, port: 0, host: '127.0.0.1' });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await store?.close();
    await cluster?.destroy();
  });

  const get = (query: string) => fetch(`${server.url}${lit.basePath}/records?${query}`);

  it('ranks a title match above a description match', async () => {
    const response = await get('q=quillwort');
    const ids = ((await response.json()) as { repo_id: string }[]).map((record) => record.repo_id);
    expect(ids).toEqual(['900001', '900002']);
  });

  it('answers a facets request past the budget with 503, and no count left over takes the server down', async () => {
    // With a 1 ms budget even opening (one small read) may run past it on a busy machine.
    let hurried: RecordStore | undefined;
    for (let attempt = 0; !hurried && attempt < 50; attempt++) {
      hurried = await openPgStore(`${cluster.primary.url},${cluster.replicas[0]!.url}`, { poolSize: 2, budgetMs: 1 }).catch(
        () => undefined,
      );
    }
    if (!hurried) throw new Error('could not open the store with a 1 ms budget');
    const hurriedServer = await startServer({ store: hurried, port: 0, host: '127.0.0.1' });
    try {
      const response = await fetch(`${hurriedServer.url}${lit.basePath}/facets?q=${encodeURIComponent('a* OR e*')}`);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      // The counts still running fail after the answer; they must fail quietly.
      await new Promise((done) => setTimeout(done, 1_000));
      expect((await get('q=quillwort')).status).toBe(200);
    } finally {
      await hurriedServer.close();
      await hurried.close();
    }
  });

  it('reads from the replica: the primary can go away without a failed read', async () => {
    const replicaOnly = await openPgStore(`${cluster.primary.url},${cluster.replicas[0]!.url}`, { poolSize: 1 });
    await cluster.primary.stop('fast');
    try {
      expect(await replicaOnly.count('LIT')).toBe(602);
    } finally {
      await replicaOnly.close();
    }
  });

  it('keeps answering every request when the replica dies mid-run', async () => {
    // The primary was stopped by the previous test; a new cluster state is not needed:
    // start it again so the store has a server to fall back to.
    await restartPrimary(cluster);
    const queries = ['q=energy', 'q=solar OR wind&sort=publication_date', 'q=-data&rows=5', 'title=grid*', 'sort=title&order=asc'];
    const statuses: number[] = [];
    let killed = false;
    for (let i = 0; i < 60; i++) {
      if (i === 20) {
        await cluster.replicas[0]!.stop('immediate');
        killed = true;
      }
      const response = await get(queries[i % queries.length]!);
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(killed).toBe(true);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});

/** Starts the primary again after a test stopped it (same data directory and port). */
async function restartPrimary(cluster: PgCluster) {
  const { primary } = cluster;
  if (await primary.isRunning()) return;
  await primary.start();
}

describe('--store URLs', () => {
  it('takes a primary and replicas, and refuses what is not a postgres URL', () => {
    expect(parseStoreUrl('postgres://a@h:1/db,postgres://a@r:2/db')).toEqual({
      primary: 'postgres://a@h:1/db',
      replicas: ['postgres://a@r:2/db'],
    });
    expect(() => parseStoreUrl('mysql://h/db')).toThrow(/not a postgres:\/\/ URL/);
    expect(() => parseStoreUrl('')).toThrow(/needs a postgres/);
  });

  it.skipIf(unavailable)(
    'records import writes to --store, and --db with --store is a usage error',
    async () => {
      const cluster = await startCluster();
      try {
        const cli = resolve(repoRoot, 'bin/records.js');
        const { stdout } = await run('node', [
          cli,
          'import',
          'DC1',
          resolve(repoRoot, 'data/real/dc-v1-plasma-lab-209.json'),
          '--store',
          cluster.primary.url,
        ]);
        expect(stdout).toMatch(/Imported \d+ DC1 records/);
        const failed = await run('node', [cli, 'import', 'DC1', 'x.json', '--store', cluster.primary.url, '--db', 'x.db']).catch(
          (error: { code: number; stderr: string }) => error,
        );
        expect(failed).toMatchObject({ code: 2, stderr: expect.stringMatching(/--db and --store/) });
        const store = await openPgStore(cluster.primary.url);
        try {
          expect(await store.count('DC1')).toBe(189);
          expect((await store.get('DC1', '1562055'))?.title).toMatch(/Alfv/);
        } finally {
          await store.close();
        }
      } finally {
        await cluster.destroy();
      }
    },
    60_000,
  );
});
