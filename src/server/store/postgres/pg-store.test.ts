import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { searchColumns } from '../../../deployments/schema';
import { generateRecords } from '../../corpus/generate';
import { benchmarkTerms as terms } from '../../corpus/vocabulary';
import { startServer, type RunningServer } from '../../http/server';
import { buildRecord } from '../../http/server-fixture.test-support';
import { parseQuery } from '../../query/parse';
import { openStore, openStoreWriter } from '../sqlite/sqlite';
import type { RecordStore } from '../types';
import { parseStoreUrl } from './pg-pool';
import type { PgStore } from './pg-store';
import { openPgRecordWriter } from './pg-writer';
import { postgresUnavailable, startCluster, type PgCluster } from './cluster.test-support';
import { caughtUp, openPgTestStore } from './store.test-support';
import { expectFacetsAsWrittenAtOnce } from './fresh-facets.test-support';

const run = promisify(execFile);
const unavailable = postgresUnavailable();
if (unavailable) console.log(`PostgreSQL store tests skipped: ${unavailable}`);

const lit = deploymentByKey('LIT')!;
const repoRoot = resolve(import.meta.dirname, '../../../..');
const bin = resolve(repoRoot, 'bin/records.js');

/** Searches of every class the benchmark measures, and facets. */
const conformanceQueries = [
  `q=${terms.rare}`,
  `q=${terms.onePercent}`,
  `q=${terms.common}`,
  `q=${terms.nearlyAll}&rows=50`,
  `q=${terms.common} ${terms.nearlyAll}`,
  `q="${terms.phrase}"`,
  `q=${terms.prefix}*`,
  `q=${terms.common} OR ${terms.nearlyAll}&page=2`,
  `q=${terms.common} -${terms.nearlyAll}`,
  `title=${terms.common}`,
  `q=${terms.common}&publication_date_start=01/01/2010&publication_date_end=12/31/2016`,
  'sort=publication_date&order=desc',
  'sort=title&order=asc&rows=30',
  `q=${terms.common}&sort=publication_date&order=asc`,
].map((query) => query.replaceAll(' ', '%20'));

/** The store's records at first: generated ones, and the same rare word once in a title and once in a description only. */
const content = [
  ...generateRecords(lit, 600, { seed: 3, startId: 1 }),
  // The same rare word once in a title and once in a description only.
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
];

const lateRecord = buildRecord(lit, {
  id: '900003',
  title: 'Quillwort in a late batch',
  description: 'x',
  published: '2021-01-01T00:00:00Z',
});
const notifiedRecord = buildRecord(lit, { id: '900004', title: 'Quillwort notified', description: 'x', published: '2022-01-01T00:00:00Z' });

describe.skipIf(unavailable)('the PostgreSQL store with a streaming replica', () => {
  let cluster: PgCluster;
  let store: PgStore;
  let server: RunningServer;
  let sqliteDir: string;
  let sqlite: RecordStore;
  let sqliteServer: RunningServer;

  beforeAll(async () => {
    cluster = await startCluster();
    const writer = await openPgRecordWriter(cluster.primary.url);
    await writer.put('LIT', content);
    await writer.close();
    sqliteDir = mkdtempSync(join(tmpdir(), 'records-pg-conformance-'));
    const file = join(sqliteDir, 'records.db');
    const sqliteWriter = openStoreWriter(file);
    sqliteWriter.put('LIT', content);
    sqliteWriter.close();
    sqlite = openStore(file);
    sqliteServer = await startServer({ store: sqlite, port: 0, host: '127.0.0.1' });
    const replica = await cluster.addReplica();
    await caughtUp(cluster.primary.url, replica.url);
    store = await openPgTestStore(`${cluster.primary.url},${replica.url}`);
    server = await startServer({ store, port: 0, host: '127.0.0.1' });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await store?.close();
    await sqliteServer?.close();
    await sqlite?.close();
    if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
    await cluster?.destroy();
  });

  const get = (query: string, at = server) => fetch(`${at.url}${lit.basePath}/records?${query}`);

  it('gives the SQLite store’s totals, pages and facets, in the same order, for every query', async () => {
    for (const query of conformanceQueries) {
      // /facets takes no paging or order.
      for (const path of /rows=|page=|sort=/.test(query) ? ['records'] : ['records', 'facets']) {
        const [fromPg, fromSqlite] = await Promise.all(
          [server, sqliteServer].map(async (at) => {
            const response = await fetch(`${at.url}${lit.basePath}/${path}?${query}`);
            // Links name the server they came from.
            const body = (await response.text()).replaceAll(at.url, 'SERVER');
            return { status: response.status, total: response.headers.get('x-total-count'), body };
          }),
        );
        expect(fromSqlite!.status, `${path}?${query}`).toBe(200);
        expect(fromPg, `${path}?${query}`).toEqual(fromSqlite);
      }
    }
  });

  it('ranks a title match above a description match', async () => {
    const response = await get('q=quillwort');
    const ids = ((await response.json()) as { repo_id: string }[]).map((record) => record.repo_id);
    expect(ids).toEqual(['900001', '900002']);
  });

  it('serves a write committed on the primary once its index has followed it through the replica', async () => {
    const writer = await openPgRecordWriter(cluster.primary.url);
    try {
      await writer.put('LIT', [lateRecord]);
    } finally {
      await writer.close();
    }
    await caughtUp(cluster.primary.url, cluster.replicas[0]!.url);
    await store.caughtUp();
    const response = await get('q=quillwort');
    expect(response.headers.get('x-total-count')).toBe('3');
    expect(((await response.json()) as { repo_id: string }[]).map((record) => record.repo_id)).toContain('900003');
  });

  it('is woken by the commit itself: a server that would poll once an hour serves a write at once', async () => {
    const listening = await openPgTestStore(cluster.primary.url, { pollMs: 3_600_000 });
    try {
      const writer = await openPgRecordWriter(cluster.primary.url);
      try {
        await writer.put('LIT', [notifiedRecord]);
      } finally {
        await writer.close();
      }
      // Only the notification can bring it before the hour is out (the test's timeout is far shorter).
      await listening.caughtUp();
      const found = await listening.search('LIT', {
        text: [{ columns: searchColumns, query: parseQuery('quillwort')! }],
        exact: [],
        dates: [],
        sort: 'relevance',
        order: 'desc',
        offset: 0,
        limit: 10,
      });
      expect(found.records.map((record) => record.repo_id)).toContain('900004');
    } finally {
      await listening.close();
    }
  });

  it('counts facets as a store written at once with the same records, after writes that replace and add records', async () => {
    // Other values for stored records (their facet columns' blocks rewritten) and new ones (the columns' tails).
    const batch = [...generateRecords(lit, 150, { seed: 4, startId: 500 })];
    const writer = await openPgRecordWriter(cluster.primary.url);
    try {
      await writer.put('LIT', batch);
    } finally {
      await writer.close();
    }
    await caughtUp(cluster.primary.url, cluster.replicas[0]!.url);
    await store.caughtUp();
    await expectFacetsAsWrittenAtOnce(store, [...content, lateRecord, notifiedRecord, ...batch], sqliteDir, [
      '',
      `q=${terms.common}`,
      'publication_date_start=01/01/2010',
    ]);
  });

  it('builds a new server’s index from the replica while the primary is down', async () => {
    await cluster.primary.stop('fast');
    try {
      const late = await openPgTestStore(`${cluster.primary.url},${cluster.replicas[0]!.url}`);
      try {
        // 602 at first, 900003, 900004, and the 49 new records of the batch that replaced 500–600.
        expect(await late.count('LIT')).toBe(653);
      } finally {
        await late.close();
      }
    } finally {
      await cluster.primary.start();
    }
  });

  it('keeps answering every request when the replica and then the primary die mid-run', async () => {
    const queries = ['q=energy', 'q=solar OR wind&sort=publication_date', 'q=-data&rows=5', 'title=grid*', 'sort=title&order=asc'];
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      if (i === 20) await cluster.replicas[0]!.stop('immediate');
      if (i === 40) await cluster.primary.stop('immediate');
      const response = await get(queries[i % queries.length]!);
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    await cluster.primary.start();
  });
});

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
        const { stdout } = await run('node', [
          bin,
          'import',
          'DC1',
          resolve(repoRoot, 'data/real/dc-v1-plasma-lab-209.json'),
          '--store',
          cluster.primary.url,
        ]);
        expect(stdout).toMatch(/Imported \d+ DC1 records/);
        const failed = await run('node', [bin, 'import', 'DC1', 'x.json', '--store', cluster.primary.url, '--db', 'x.db']).catch(
          (error: { code: number; stderr: string }) => error,
        );
        expect(failed).toMatchObject({ code: 2, stderr: expect.stringMatching(/--db and --store/) });
        const store = await openPgTestStore(cluster.primary.url);
        try {
          expect(await store.count('DC1')).toBe(189);
          expect((await store.get('DC1', '1562055'))?.record.title).toMatch(/Alfv/);
        } finally {
          await store.close();
        }
      } finally {
        await cluster.destroy();
      }
    },
    60_000,
  );

  it.skipIf(unavailable)(
    'a serve started while the database has no connection to spare says so, not that it is no store',
    async () => {
      const cluster = await startCluster();
      const admin = new pg.Client({ connectionString: cluster.primary.url });
      const held = new pg.Client({ connectionString: cluster.primary.url.replace('postgres@', 'limited@') });
      try {
        await run('node', [bin, 'generate', 'LIT', '10', '--store', cluster.primary.url]);
        await admin.connect();
        // A role allowed one connection, which another client holds: what the server answers
        // when every connection is taken (53300).
        await admin.query('CREATE ROLE limited LOGIN CONNECTION LIMIT 1');
        await admin.query('GRANT SELECT ON ALL TABLES IN SCHEMA public TO limited');
        await held.connect();
        const failed = await run('node', [
          bin,
          'serve',
          '--store',
          cluster.primary.url.replace('postgres@', 'limited@'),
          '--port',
          '0',
          '--index-dir',
          mkdtempSync(join(tmpdir(), 'records-pg-index-')),
        ]).catch((error: { code: number; stderr: string }) => error);
        expect(failed).toMatchObject({ code: 1 });
        const { stderr } = failed as { stderr: string };
        expect(stderr).toMatch(/^records: Cannot open the store: .* could not be read: .*connection/);
        expect(stderr).not.toMatch(/not a Records Explorer store/);
      } finally {
        await held.end().catch(() => undefined);
        await admin.end().catch(() => undefined);
        await cluster.destroy();
      }
    },
    60_000,
  );

  it.skipIf(unavailable)(
    'ends an import whose primary crashes in one sentence, without a stack, keeping none of it',
    async () => {
      const cluster = await startCluster();
      const admin = new pg.Client({ connectionString: cluster.primary.url });
      try {
        await admin.connect();
        const child = spawn(process.execPath, [bin, 'generate', 'LIT', '200000', '--store', cluster.primary.url], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
        // Once its rows are going in, the primary stops as a crash would.
        const inserting = async () =>
          (
            await admin.query<{ query: string }>(
              `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
            )
          ).rows.some((row) => row.query.includes('INSERT INTO lit'));
        while (!(await inserting())) await new Promise((resolve) => setTimeout(resolve, 50));
        await admin.end();
        await cluster.primary.stop('immediate');
        expect(await exited).toBe(1);
        expect(output.trim().split('\n')).toHaveLength(1);
        expect(output).toMatch(/^records: Cannot write to the store \(.+\); nothing of this run was kept\.\n$/);
        await cluster.primary.start();
        const store = await openPgTestStore(cluster.primary.url);
        try {
          expect(await store.count('LIT')).toBe(0);
        } finally {
          await store.close();
        }
      } finally {
        await admin.end().catch(() => undefined);
        await cluster.destroy();
      }
    },
    120_000,
  );
});
