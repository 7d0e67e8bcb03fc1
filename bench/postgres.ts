/**
 * `npm run bench:postgres`: the PostgreSQL store beside the SQLite store in one run, on the
 * same generated LIT corpus (BENCH_RECORDS, default 1,000,000). A throwaway cluster with two
 * streaming replicas is made here (src/server/store/postgres/cluster.test-support.ts); the corpus is
 * ingested with `records generate --store`; the first `records serve --store` builds its local
 * index from a replica (timed). Per class of the query log (query-log.ts), BENCH_SAMPLES
 * distinct queries are drawn once and sent one at a time to `records serve --db` and to
 * `records serve --store`, both with search caching off, and every answer's status, total and
 * first page (facets: the whole body) are compared; then the mix at BENCH_CONCURRENCY on
 * SQLite, on PostgreSQL with one replica and with two, and how long after their commit 1,000
 * records written by `records generate --store` are counted by a running server's searches
 * and by its facets. Writes bench/results/<date>-postgres.json and prints a Markdown table.
 *
 * A full run at a million records is long, most of it the local index's build, so
 * `BENCH_PG_PARTS` (default `classes,mix,freshness`) names the parts to measure: `freshness`
 * alone ingests, builds the index and times the write, without the SQLite server or the
 * second replica. `BENCH_DB` is the SQLite store to compare against (it is only read), which
 * must hold BENCH_RECORDS records of BENCH_SEED. The cluster lives in the system's temporary
 * folder (`TMPDIR`), the local index in bench/tmp. `BENCH_FRESHNESS_WRITES` (1000) lists the
 * sizes of the writes whose freshness is measured, one after another. A write not counted within
 * `BENCH_FRESHNESS_SECONDS` (600) is recorded as not seen (null) rather than waited for; the
 * requests that failed while it was applied, and the slowest answer, are recorded too.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { postgresUnavailable, startCluster } from '../src/server/store/postgres/cluster.test-support';
import { caughtUp } from '../src/server/store/postgres/store.test-support';
import { int, readConfig, type BenchConfig } from './config';
import { benchCorpus, tmpDir } from './corpus';
import { singleClient, type SingleClient } from './http-client';
import { runMix, type LoadResult } from './load';
import { gitCommit, load1, machine, waitForQuiet } from './machine';
import { freePort, repoRoot, startChild, startRecordsServer, type Child } from './processes';
import { learnVocabulary, queryLog, trafficClasses, type TrafficClass } from './query-log';
import { summarize } from './stats';

const run = promisify(execFile);

const folderBytes = (dir: string) => readdirSync(dir).reduce((sum, name) => sum + statSync(resolve(dir, name)).size, 0);
const log = (line: string) => console.log(`[bench:postgres ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** One query's answer: its time, and what two stores must agree on (status, total, the first page or the facets). */
interface Answer {
  readonly ms: number;
  readonly status: number;
  readonly total: string | undefined;
  readonly page: string;
}

/** Per class of the query log, BENCH_SAMPLES distinct queries drawn once and sent to both stores. */
function drawQueries(config: BenchConfig): { trafficClass: TrafficClass; paths: string[] }[] {
  const log = queryLog(config.seed);
  return trafficClasses(learnVocabulary(config.records, config.seed)).map((trafficClass) => {
    const paths: string[] = [];
    for (let path = log.next(trafficClass); path !== undefined && paths.length < config.samples; path = log.next(trafficClass))
      paths.push(path);
    return { trafficClass, paths };
  });
}

/** Each query once, one at a time, against a server that remembers no search (`--search-cache-mb 0`). */
async function answers(client: SingleClient, origin: string, drawn: ReturnType<typeof drawQueries>, config: BenchConfig, kind: string) {
  const results: Answer[][] = [];
  for (const { trafficClass, paths } of drawn) {
    await waitForQuiet(config.quietSeconds);
    const classAnswers: Answer[] = [];
    for (const path of paths) {
      try {
        const response = await client.get(origin + path, config.timeoutSeconds * 1000);
        const text = response.body.toString('utf8');
        const body: unknown = response.status === 200 ? JSON.parse(text) : undefined;
        // A page by its records' ids (links name the server); facets by their whole body.
        const page = Array.isArray(body) ? (body as { repo_id: string }[]).map((record) => record.repo_id).join(' ') : text;
        const total = response.headers['x-total-count'];
        classAnswers.push({ ms: response.ms, status: response.status, total: typeof total === 'string' ? total : undefined, page });
      } catch (error) {
        classAnswers.push({ ms: Number.NaN, status: 0, total: undefined, page: (error as Error).message });
      }
    }
    const summary = summarize(classAnswers.filter((answer) => answer.status === 200).map((answer) => answer.ms));
    log(`${kind} ${trafficClass.id.padEnd(14)} n ${String(summary.n).padStart(3)}  p50 ${summary.p50}  p95 ${summary.p95}`);
    results.push(classAnswers);
  }
  return results;
}

async function startPgServer(store: string, indexDir: string): Promise<Child> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startChild(
        process.execPath,
        ['bin/records.js', 'serve', '--store', store, '--index-dir', indexDir, '--search-cache-mb', '0', '--port', '{port}'],
        '/api/lit/v1/records?rows=1',
        {},
        undefined,
        // The first start builds the local index from PostgreSQL.
        3600,
      );
    } catch (error) {
      // A port found free may be taken while the index builds (by an outgoing connection, say): the built index stays for the next try.
      if (attempt === 3 || !(error as Error).message.includes('port is in use')) throw error;
    }
  }
}

/** The LIT total a server answers now, to a search (`records`) or to its facets (`facets`). */
async function litTotal(origin: string, endpoint: 'records' | 'facets'): Promise<number> {
  const response = await fetch(`${origin}/api/lit/v1/${endpoint === 'records' ? 'records?rows=1' : 'facets'}`);
  await response.arrayBuffer();
  return Number(response.headers.get('x-total-count'));
}

/**
 * Seconds from `since` until the server's total at `endpoint` reaches `total` (null when it has
 * not after `limitSeconds`), asking again 50 ms after each answer. A request that fails (a
 * reset connection) is counted and asked again, as a browser retries a GET; the slowest
 * answer shows how long the server kept a request waiting meanwhile.
 */
async function seenAfter(origin: string, endpoint: 'records' | 'facets', total: number, since: number, limitSeconds: number) {
  const elapsed = (from: number) => Math.round((performance.now() - from) / 100) / 10;
  let failed = 0;
  let slowestSeconds = 0;
  for (;;) {
    const asked = performance.now();
    const seen = await litTotal(origin, endpoint).then(
      (now) => now >= total,
      () => (failed++, false),
    );
    slowestSeconds = Math.max(slowestSeconds, elapsed(asked));
    if (seen) return { seconds: elapsed(since), failed, slowestSeconds };
    if (elapsed(since) > limitSeconds) return { seconds: null, failed, slowestSeconds };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const allParts = ['classes', 'mix', 'freshness'] as const;
type Part = (typeof allParts)[number];

function readParts(): ReadonlySet<Part> {
  const names = (process.env.BENCH_PG_PARTS || allParts.join(',')).split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(allParts as readonly string[]).includes(name));
  if (unknown.length) throw new Error(`BENCH_PG_PARTS: unknown ${unknown.join(', ')} (parts: ${allParts.join(', ')})`);
  return new Set(names as Part[]);
}

/** The command of this run: the settings it was given in the environment (a path by its file name only). */
function commandOf(): string {
  const settings = Object.keys(process.env)
    .filter((name) => name.startsWith('BENCH_'))
    .sort()
    .map((name) => `${name}=${isAbsolute(process.env[name]!) ? `…/${basename(process.env[name]!)}` : process.env[name]}`);
  return [...settings, 'npm run bench:postgres'].join(' ');
}

async function main() {
  const unavailable = postgresUnavailable();
  if (unavailable) throw new Error(`PostgreSQL is needed: ${unavailable}`);
  const started = performance.now();
  const config = readConfig();
  const parts = readParts();
  const date = new Date().toISOString();
  mkdirSync(tmpDir, { recursive: true });
  // The SQLite store is measured only beside the classes and the mix. PostgreSQL gets the same corpus generated.
  const corpus = parts.has('classes') || parts.has('mix') ? await benchCorpus(config, log) : undefined;
  if (corpus && (corpus.records !== config.records || corpus.seed !== config.seed))
    throw new Error(
      `BENCH_DB holds ${corpus.records} records of seed ${corpus.seed}, not BENCH_RECORDS=${config.records} of BENCH_SEED=${config.seed}`,
    );
  const client = singleClient();
  const cluster = await startCluster({ port: freePort });
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
    // The second replica serves only the mix with two.
    const replicas = [await cluster.addReplica(), ...(parts.has('mix') ? [await cluster.addReplica()] : [])];
    for (const replica of replicas) await caughtUp(cluster.primary.url, replica.url);

    const drawn = parts.has('classes') ? drawQueries(config) : [];
    if (drawn.length)
      log(`query log: ${drawn.reduce((sum, { paths }) => sum + paths.length, 0)} distinct queries in ${drawn.length} classes`);
    let sqlite: Answer[][] = [];
    let mixSqlite: LoadResult | undefined;
    if (corpus) {
      server = await startRecordsServer(corpus.path, undefined, ['--search-cache-mb', '0']);
      sqlite = await answers(client, server.url, drawn, config, 'sqlite  ');
      if (parts.has('mix')) {
        log(`mix at concurrency ${config.concurrency}, SQLite ...`);
        mixSqlite = await runMix(server.url, server.pid, config);
        log(
          `mix SQLite: ${mixSqlite.rps} req/s, p99 ${mixSqlite.latencyMs.p99} ms, errors ${mixSqlite.errors}, timeouts ${mixSqlite.timeouts}`,
        );
      }
      await server.stop();
    }

    const oneReplica = `${cluster.primary.url},${replicas[0]!.url}`;
    const buildStart = performance.now();
    server = await startPgServer(oneReplica, indexDir);
    const indexBuildSeconds = (performance.now() - buildStart) / 1000;
    const indexBuiltBytes = folderBytes(indexDir);
    log(`local index built and served in ${indexBuildSeconds.toFixed(1)} s, ${(indexBuiltBytes / 1e9).toFixed(2)} GB`);
    const postgres = await answers(client, server.url, drawn, config, 'postgres');
    let mixOne: LoadResult | undefined;
    if (parts.has('mix')) {
      log(`mix at concurrency ${config.concurrency}, one replica ...`);
      mixOne = await runMix(server.url, server.pid, config);
      log(`mix one replica: ${mixOne.rps} req/s, p99 ${mixOne.latencyMs.p99} ms, errors ${mixOne.errors}, timeouts ${mixOne.timeouts}`);
    }

    // Per write size (BENCH_FRESHNESS_WRITES, records written by one `records generate`, default 1000):
    // new records written to the primary, until this running server counts them in a search and in its facets.
    const freshnessRuns = [];
    const writeSizes = parts.has('freshness') ? (process.env.BENCH_FRESHNESS_WRITES || '1000').split(',').map(Number) : [];
    for (const [index, written] of writeSizes.entries()) {
      if (!Number.isSafeInteger(written) || written < 1) throw new Error(`BENCH_FRESHNESS_WRITES: ${written} is not a record count`);
      await waitForQuiet(config.quietSeconds);
      const before = await litTotal(server.url, 'records');
      const writeStart = performance.now();
      await run(
        process.execPath,
        ['bin/records.js', 'generate', 'LIT', String(written), '--seed', String(7 + index), '--store', cluster.primary.url],
        { cwd: repoRoot },
      );
      const committed = performance.now();
      const writeSeconds = Math.round((committed - writeStart) / 100) / 10;
      const limit = int('BENCH_FRESHNESS_SECONDS', 600);
      const searches = await seenAfter(server.url, 'records', before + written, committed, limit);
      const facets = await seenAfter(server.url, 'facets', before + written, committed, limit);
      freshnessRuns.push({
        records: written,
        writeSeconds,
        searchSeconds: searches.seconds,
        facetsSeconds: facets.seconds,
        limitSeconds: limit,
        searches,
        facets,
      });
      log(
        `${written.toLocaleString('en-US')} records: written in ${writeSeconds} s; after the commit, in searches ${searches.seconds} s, in facets ${facets.seconds} s; ` +
          `failed requests ${searches.failed + facets.failed}, slowest answer ${Math.max(searches.slowestSeconds, facets.slowestSeconds)} s`,
      );
    }
    // One write keeps the result's earlier shape.
    const freshness = freshnessRuns.length > 1 ? freshnessRuns : freshnessRuns[0];
    await server.stop();

    let mixTwo: LoadResult | undefined;
    if (parts.has('mix')) {
      server = await startPgServer(`${oneReplica},${replicas[1]!.url}`, indexDir);
      log(`mix at concurrency ${config.concurrency}, two replicas ...`);
      mixTwo = await runMix(server.url, server.pid, config);
      log(`mix two replicas: ${mixTwo.rps} req/s, p99 ${mixTwo.latencyMs.p99} ms, errors ${mixTwo.errors}, timeouts ${mixTwo.timeouts}`);
      await server.stop();
    }
    server = undefined;

    const rows = drawn.map(({ trafficClass, paths }, i) => {
      const s = sqlite[i]!;
      const p = postgres[i]!;
      const sp = summarize(s.filter((answer) => answer.status === 200).map((answer) => answer.ms));
      const pp = summarize(p.filter((answer) => answer.status === 200).map((answer) => answer.ms));
      const differing = paths.filter((_, q) => s[q]!.status !== p[q]!.status || s[q]!.total !== p[q]!.total || s[q]!.page !== p[q]!.page);
      return {
        id: trafficClass.id,
        label: trafficClass.label,
        queries: paths.length,
        sqliteP95: sp.p95,
        postgresP95: pp.p95,
        ratio: Math.round((pp.p95 / Math.max(sp.p95, 0.1)) * 10) / 10,
        sqliteP50: sp.p50,
        postgresP50: pp.p50,
        errors: {
          sqlite: s.filter((answer) => answer.status !== 200).length,
          postgres: p.filter((answer) => answer.status !== 200).length,
        },
        differing,
      };
    });
    const result = {
      date,
      command: commandOf(),
      parts: [...parts],
      durationSeconds: Math.round((performance.now() - started) / 1000),
      machine: machine(),
      load1End: load1(),
      git: gitCommit(),
      records: config.records,
      ingest: {
        seconds: Math.round(ingestSeconds),
        databaseBytes: Number(size),
        sqliteSeconds: corpus && Math.round(corpus.ingestSeconds),
      },
      localIndex: { buildSeconds: Math.round(indexBuildSeconds * 10) / 10, bytes: indexBuiltBytes, bytesAtEnd: folderBytes(indexDir) },
      freshness,
      classes: rows,
      mix: mixSqlite &&
        mixOne &&
        mixTwo && {
          sqlite: mixSqlite,
          oneReplica: mixOne,
          twoReplicas: mixTwo,
          oneReplicaOfSqlite: Math.round((mixOne.rps / mixSqlite.rps) * 100) / 100,
        },
    };
    const dir = resolve(repoRoot, 'bench/results');
    mkdirSync(dir, { recursive: true });
    const name = `${date.replace(/[:]/g, '-').replace(/\.\d+Z$/, 'Z')}-postgres.json`;
    writeFileSync(resolve(dir, name), `${JSON.stringify(result, null, 2)}\n`);
    if (rows.length) {
      console.log(`\n| class | queries | SQLite p95 (ms) | PostgreSQL p95 (ms) | ratio | different answers |\n|---|--:|--:|--:|--:|--:|`);
      for (const row of rows)
        console.log(`| ${row.label} | ${row.queries} | ${row.sqliteP95} | ${row.postgresP95} | ${row.ratio}× | ${row.differing.length} |`);
      const differing = rows.flatMap((row) => row.differing);
      console.log(`\ntotals and first pages: ${differing.length ? `DIFFERENT for ${differing.join(', ')}` : 'identical for every query'}`);
    }
    console.log(
      `ingest: PostgreSQL ${result.ingest.seconds} s, SQLite ${result.ingest.sqliteSeconds ?? '–'} s; local index built in ${result.localIndex.buildSeconds} s, ${(result.localIndex.bytes / 1e6).toFixed(0)} MB`,
    );
    for (const run of freshnessRuns)
      console.log(
        `${run.records.toLocaleString('en-US')} records written in ${run.writeSeconds} s; served after the commit in searches ${run.searchSeconds} s, in facets ${run.facetsSeconds} s (failed requests meanwhile ${run.searches.failed + run.facets.failed}, slowest answer ${Math.max(run.searches.slowestSeconds, run.facets.slowestSeconds)} s)`,
      );
    if (result.mix)
      console.log(
        `mix c=${config.concurrency}: SQLite ${result.mix.sqlite.rps} req/s, PostgreSQL one replica ${result.mix.oneReplica.rps} req/s (${Math.round(result.mix.oneReplicaOfSqlite * 100)}%), two replicas ${result.mix.twoReplicas.rps} req/s; load average at the end ${result.load1End}`,
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
