/**
 * `npm run bench:postgres`: the PostgreSQL store beside the SQLite store in one run, on the
 * same generated LIT corpus (BENCH_RECORDS, default 1,000,000). A throwaway cluster with two
 * streaming replicas is made here (src/server/store/postgres/test-cluster.ts); the corpus is
 * ingested with `records generate --store`; the first `records serve --store` builds its local
 * index from a replica (timed); every query class is measured over HTTP against `records serve
 * --db` and `records serve --store`, both with search caching off (uncached), and each class's
 * total is compared; then the mix at BENCH_CONCURRENCY with one and with two replicas, and how
 * long a running server takes to serve 1,000 records written by `records generate --store`.
 * Writes bench/results/<date>-postgres.json and prints a Markdown table for the README.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { postgresUnavailable, startCluster } from '../src/server/store/postgres/test-cluster';
import { caughtUp } from '../src/server/store/postgres/test-store';
import { readConfig, type BenchConfig } from './config';
import { benchCorpus, tmpDir } from './corpus';
import { singleClient, type SingleClient } from './http-client';
import { measureClass, type ClassResult } from './latency';
import { runMix } from './load';
import { gitCommit, load1, machine } from './machine';
import { repoRoot, startChild, startRecordsServer, type Child } from './processes';
import { queryClasses } from './queries';

const run = promisify(execFile);

const folderBytes = (dir: string) => readdirSync(dir).reduce((sum, name) => sum + statSync(resolve(dir, name)).size, 0);
const log = (line: string) => console.log(`[bench:postgres ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** A class the run could not measure (the server broke the connection, say): named, not fatal. */
type Measured =
  | ClassResult
  | { readonly id: string; readonly failed: string; readonly p95?: undefined; readonly total?: undefined; readonly firstIds?: undefined };

async function classes(client: SingleClient, origin: string, config: BenchConfig, kind: string): Promise<Measured[]> {
  const results: Measured[] = [];
  for (const queryClass of queryClasses) {
    try {
      const result = await measureClass(client, origin, queryClass, config);
      log(
        `${kind} ${queryClass.id.padEnd(12)} total ${String(result.total).padStart(8)}  p50 ${result.p50}  p95 ${result.p95}${result.errors ? `  ERRORS ${result.errors}` : ''}`,
      );
      results.push(result);
    } catch (error) {
      log(`${kind} ${queryClass.id.padEnd(12)} FAILED: ${(error as Error).message}`);
      results.push({ id: queryClass.id, failed: (error as Error).message });
    }
  }
  return results;
}

function startPgServer(store: string, indexDir: string): Promise<Child> {
  return startChild(
    process.execPath,
    ['bin/records.js', 'serve', '--store', store, '--index-dir', indexDir, '--search-cache-mb', '0', '--port', '{port}'],
    '/api/lit/v1/records?rows=1',
  );
}

/** The LIT total a server answers now. */
async function litTotal(origin: string): Promise<number> {
  const response = await fetch(`${origin}/api/lit/v1/records?rows=1`);
  await response.arrayBuffer();
  return Number(response.headers.get('x-total-count'));
}

async function main() {
  const unavailable = postgresUnavailable();
  if (unavailable) throw new Error(`PostgreSQL is needed: ${unavailable}`);
  const started = performance.now();
  const config = readConfig();
  const date = new Date().toISOString();
  mkdirSync(tmpDir, { recursive: true });
  // BENCH_DB must hold the corpus of BENCH_RECORDS and BENCH_SEED: PostgreSQL gets the same one generated.
  const corpus = benchCorpus(config, log);
  const client = singleClient();
  const cluster = await startCluster();
  const indexDir = resolve(tmpDir, `pg-index-${process.pid}`);
  let server: Child | undefined;
  try {
    log(`ingesting ${config.records} LIT records into PostgreSQL ...`);
    const ingestStart = performance.now();
    await run(
      process.execPath,
      ['bin/records.js', 'generate', 'LIT', String(config.records), '--seed', String(config.seed), '--store', cluster.primary.url],
      {
        cwd: repoRoot,
        maxBuffer: 1 << 24,
      },
    );
    const admin = new pg.Client(cluster.primary.url);
    await admin.connect();
    await admin.query('VACUUM ANALYZE');
    const size = (await admin.query<{ bytes: string }>(`SELECT pg_database_size('records')::text AS bytes`)).rows[0]!.bytes;
    await admin.end();
    const ingestSeconds = (performance.now() - ingestStart) / 1000;
    log(`ingest ${ingestSeconds.toFixed(0)} s, database ${(Number(size) / 1e9).toFixed(2)} GB`);
    const replicas = [await cluster.addReplica(), await cluster.addReplica()];
    for (const replica of replicas) await caughtUp(cluster.primary.url, replica.url);

    server = await startRecordsServer(corpus.path, undefined, ['--search-cache-mb', '0']);
    const sqlite = await classes(client, server.url, config, 'sqlite uncached');
    await server.stop();

    const oneReplica = `${cluster.primary.url},${replicas[0]!.url}`;
    const buildStart = performance.now();
    server = await startPgServer(oneReplica, indexDir);
    const indexBuildSeconds = (performance.now() - buildStart) / 1000;
    log(`local index built and served in ${indexBuildSeconds.toFixed(1)} s`);
    const postgres = await classes(client, server.url, config, 'postgres');
    log(`mix at concurrency ${config.concurrency}, one replica ...`);
    const mixOne = await runMix(server.url, server.pid, config);
    log(`mix one replica: ${mixOne.rps} req/s, p99 ${mixOne.latencyMs.p99} ms, errors ${mixOne.errors}, timeouts ${mixOne.timeouts}`);

    // Freshness: 1,000 records written to the primary, until this running server counts them.
    const before = await litTotal(server.url);
    const writeStart = performance.now();
    await run(process.execPath, ['bin/records.js', 'generate', 'LIT', '1000', '--seed', '7', '--store', cluster.primary.url], {
      cwd: repoRoot,
    });
    const writeSeconds = (performance.now() - writeStart) / 1000;
    while ((await litTotal(server.url)) < before + 1000) await new Promise((resolve) => setTimeout(resolve, 50));
    const seenSeconds = (performance.now() - writeStart) / 1000;
    log(`1,000 records: written in ${writeSeconds.toFixed(1)} s, served ${seenSeconds.toFixed(1)} s after the write began`);
    await server.stop();

    server = await startPgServer(`${oneReplica},${replicas[1]!.url}`, indexDir);
    log(`mix at concurrency ${config.concurrency}, two replicas ...`);
    const mixTwo = await runMix(server.url, server.pid, config);
    log(`mix two replicas: ${mixTwo.rps} req/s, p99 ${mixTwo.latencyMs.p99} ms, errors ${mixTwo.errors}, timeouts ${mixTwo.timeouts}`);
    await server.stop();
    server = undefined;

    const rows = queryClasses.map((queryClass, i) => {
      const s = sqlite[i]!;
      const p = postgres[i]!;
      const ratio = s.p95 !== undefined && p.p95 !== undefined ? Math.round((p.p95 / Math.max(s.p95, 0.1)) * 10) / 10 : undefined;
      return {
        id: queryClass.id,
        label: queryClass.label,
        sqliteP95: s.p95 ?? 'failed',
        postgresP95: p.p95 ?? 'failed',
        ratio,
        sqliteTotal: s.total,
        postgresTotal: p.total,
        sameFirstPage: s.firstIds !== undefined && JSON.stringify(s.firstIds) === JSON.stringify(p.firstIds),
      };
    });
    const result = {
      date,
      command: `BENCH_RECORDS=${config.records} npm run bench:postgres`,
      durationSeconds: Math.round((performance.now() - started) / 1000),
      machine: machine(),
      load1End: load1(),
      git: gitCommit(),
      records: config.records,
      ingest: { seconds: Math.round(ingestSeconds), databaseBytes: Number(size), sqliteSeconds: corpus.ingestSeconds },
      localIndex: { buildSeconds: Math.round(indexBuildSeconds * 10) / 10, bytes: folderBytes(indexDir) },
      freshness: { writeSeconds: Math.round(writeSeconds * 10) / 10, servedSeconds: Math.round(seenSeconds * 10) / 10 },
      classes: rows,
      mix: { oneReplica: mixOne, twoReplicas: mixTwo },
    };
    const dir = resolve(repoRoot, 'bench/results');
    mkdirSync(dir, { recursive: true });
    const name = `${date.replace(/[:]/g, '-').replace(/\.\d+Z$/, 'Z')}-postgres.json`;
    writeFileSync(resolve(dir, name), `${JSON.stringify(result, null, 2)}\n`);
    console.log(`\n| class | SQLite p95 (ms) | PostgreSQL p95 (ms) | ratio | totals (SQLite / PostgreSQL) |\n|---|--:|--:|--:|--:|`);
    for (const row of rows)
      console.log(`| ${row.label} | ${row.sqliteP95} | ${row.postgresP95} | ${row.ratio}× | ${row.sqliteTotal} / ${row.postgresTotal} |`);
    const mismatched = rows.filter((row) => row.sqliteTotal !== row.postgresTotal || !row.sameFirstPage).map((row) => row.id);
    console.log(`\ntotals and first pages: ${mismatched.length ? `DIFFERENT for ${mismatched.join(', ')}` : 'identical for every class'}`);
    console.log(
      `local index: built in ${result.localIndex.buildSeconds} s, ${(result.localIndex.bytes / 1e6).toFixed(0)} MB; 1,000 records written in ${result.freshness.writeSeconds} s and served ${result.freshness.servedSeconds} s after the write began`,
    );
    console.log(
      `\nmix c=${config.concurrency}: one replica ${mixOne.rps} req/s (p99 ${mixOne.latencyMs.p99} ms), two replicas ${mixTwo.rps} req/s (p99 ${mixTwo.latencyMs.p99} ms)`,
    );
    log(`wrote bench/results/${name}`);
  } finally {
    client.close();
    await server?.stop();
    await cluster.destroy();
    rmSync(indexDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
