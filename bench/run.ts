/**
 * `npm run bench`: issue 5's benchmark. Builds (or reuses) a generated LIT database,
 * starts the real server on it as a child process, and measures over HTTP. Writes
 * bench/results/<date>[-label].json and regenerates bench/README.md.
 */
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { buildApp, timeToFirstResults, type AppSize, type FirstResults } from './app';
import { measureFts5Peer, type PeerResult } from './fts5-peer';
import { int, readConfig } from './config';
import { benchCorpus, tmpDir, type CorpusInfo } from './corpus';
import { singleClient, type SingleClient } from './http-client';
import { measureImport, type ImportResult } from './import-while-serving';
import { knownItemsGenerated, measureKnownItems, type KnownItemsResult } from './known-items';
import { measureIsolation } from './isolation';
import { measureClass, measureFloor, uncachedPart, type ClassResult } from './latency';
import { runMix } from './load';
import { gitCommit, load1, machine } from './machine';
import { peakRssOf, rssOf } from './memory';
import { repoRoot, startBaselineServer, startRecordsServer, type Child } from './processes';
import { benchmarkTerms } from '../src/server/corpus/vocabulary';
import { basePath, queryClasses } from './queries';
import { writeReadme } from './report';
import type { BenchConfig } from './config';
import type { BenchResult, TrafficRun } from './results';
import { measureTraffic } from './traffic';

const log = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** Reads the database once, so every run starts with it in the OS page cache. */
function readThrough(path: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const stream = createReadStream(path, { highWaterMark: 4 << 20 });
    stream.on('data', () => undefined);
    stream.on('end', resolvePromise);
    stream.on('error', reject);
  });
}

async function measureClasses(client: SingleClient, origin: string, config: BenchConfig, kind: string): Promise<ClassResult[]> {
  const results: ClassResult[] = [];
  for (const queryClass of queryClasses) {
    const result = await measureClass(client, origin, queryClass, config);
    log(
      `${kind} ${queryClass.id.padEnd(10)} total ${String(result.total).padStart(8)}  first ${result.firstMs.toFixed(1)}  p50 ${result.p50}  p95 ${result.p95}  p99 ${result.p99}  n ${result.n}${result.errors ? `  ERRORS ${result.errors}` : ''}`,
    );
    results.push(result);
  }
  return results;
}

const corpusOf = ({ path, ...rest }: CorpusInfo) => ({ ...rest, file: relative(repoRoot, path) });

/** bench/results/<date>[-label].json, then bench/README.md regenerated from the results. */
function writeResults(result: BenchResult | TrafficRun) {
  const resultsDir = resolve(repoRoot, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const name = `${result.date.replace(/[:]/g, '-').replace(/\.\d+Z$/, 'Z')}${result.label ? `-${result.label}` : ''}.json`;
  writeFileSync(resolve(resultsDir, name), `${JSON.stringify(result, null, 2)}\n`);
  writeReadme();
  log(`wrote bench/results/${name} and bench/README.md (${(result.durationSeconds / 60).toFixed(1)} min)`);
}

async function main() {
  const started = performance.now();
  const config = readConfig();
  const date = new Date().toISOString();
  const loadStart = load1();
  const envSettings = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_'))
    .map(([name, value]) => `${name}=${value}`)
    .sort();
  const command = [...envSettings, 'npm run bench'].join(' ');
  log(`${command} (load average ${loadStart})`);

  let appSize: AppSize | undefined;
  let appError: string | undefined;
  const distDir = resolve(tmpDir, 'dist');
  if (!config.skipApp && !config.trafficOnly) {
    log('building the app ...');
    try {
      appSize = await buildApp(distDir);
      log(`initial JS ${(appSize.gzipBytes / 1000).toFixed(1)} kB gzip (${appSize.files.join(', ')})`);
    } catch (error) {
      appError = (error as Error).message;
      log(`app build failed: ${appError}`);
    }
  }

  // Known items first, in process, before any server of the run is on the machine.
  let knownItems: KnownItemsResult | undefined;
  if (!config.trafficOnly && process.env.BENCH_SKIP_KNOWN_ITEMS !== '1') {
    log(`known items: real records among ${knownItemsGenerated().toLocaleString('en')} generated per deployment, on each store ...`);
    knownItems = await measureKnownItems(knownItemsGenerated(), config.seed, log);
  }

  const corpus = await benchCorpus(config, log);
  /** What every results file says of its run. */
  const runInfo = () => ({
    version: 3 as const,
    label: config.label,
    date,
    command,
    durationSeconds: Math.round((performance.now() - started) / 1000),
    machine: machine(),
    load1: { start: loadStart, end: load1() },
    git: gitCommit(),
    config,
    corpus: corpusOf(corpus),
  });
  log('reading the database into the OS cache ...');
  await readThrough(corpus.path);

  let server: Child | undefined;
  let floorServer: Child | undefined;
  const client = singleClient();
  try {
    // Uncached latency first, on a server that remembers no search (no orders, no match
    // sets), so every request is computed afresh; the OS page cache stays warm, as for
    // any running server. It is stopped before the normal server starts, so only one
    // server's workers and memory are on the machine at a time.
    server = await startRecordsServer(corpus.path, undefined, ['--search-cache-mb', '0']);
    log(`server with search caching off ${server.url} (pid ${server.pid})`);
    const uncached = config.trafficOnly ? [] : await measureClasses(client, server.url, config, 'uncached');

    // The floor: a real 20-record page of this server, replayed from memory. Its query is
    // none of the classes', so it leaves their first request uncached.
    const pagePath = `${basePath}/records?${new URLSearchParams({ q: 'plasma' })}`;
    const page = await client.get(server.url + pagePath);
    const headers = Object.fromEntries(
      Object.entries(page.headers).filter(
        ([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name),
      ),
    );
    const pageFile = resolve(tmpDir, 'floor-page.json');
    mkdirSync(tmpDir, { recursive: true });
    writeFileSync(pageFile, JSON.stringify({ headers, body: page.body.toString('utf8') }));
    floorServer = await startBaselineServer(pageFile);
    const floorClient = singleClient();
    const floor = { ...(await measureFloor(floorClient, floorServer.url, config)), bytes: page.body.length };
    floorClient.close();
    log(`floor p50 ${floor.p50} ms p95 ${floor.p95} ms`);
    // Real traffic on the same server that remembers nothing, its throughput against the floor's.
    const sent = new Map<string, { label: string; paths: string[] }>();
    const traffic = await measureTraffic(client, server.url, floorServer.url, config, log, sent);
    await floorServer.stop();
    floorServer = undefined;
    await server.stop();
    server = undefined;
    // The peer, in process, once no server of the run is left on the machine: the same searches.
    let peer: PeerResult | undefined;
    if (process.env.BENCH_SKIP_PEERS !== '1') peer = measureFts5Peer(corpus.path, sent, tmpDir, int('BENCH_PEER_SECONDS', 10), log);
    if (config.trafficOnly) {
      writeResults({ ...runInfo(), label: config.label || 'traffic', traffic, ...(peer ? { peer } : {}) });
      return;
    }

    server = await startRecordsServer(corpus.path, appSize ? distDir : undefined);
    log(`server ${server.url} (pid ${server.pid})`);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 1000));
    const idleBytes = rssOf(server.pid) ?? 0;

    const repeated = await measureClasses(client, server.url, config, 'repeated');
    const classes = repeated.map((result, i) => {
      const fresh = uncached[i]!;
      // Both servers must give the same answers; a difference would be a caching bug, not a timing.
      if (fresh.total !== result.total || fresh.firstIds.join() !== result.firstIds.join())
        log(`WARNING ${result.id}: uncached and repeated results differ`);
      return {
        ...result,
        p50Ratio: Math.round((result.p50 / floor.p50) * 10) / 10,
        p95Ratio: Math.round((result.p95 / floor.p95) * 10) / 10,
        uncached: uncachedPart(fresh),
      };
    });
    const afterClassesBytes = rssOf(server.pid) ?? 0;

    log('isolation: single records while heavy queries run ...');
    const isolation = await measureIsolation(server.url, config);
    log(
      `records alone p95 ${isolation.recordsAlone.p95} ms, during heavy p95 ${isolation.recordsDuring.p95} ms (heavy p50 ${isolation.heavy.p50} ms)`,
    );

    log(`mix at concurrency ${config.concurrency} for ${config.mixSeconds} s ...`);
    const mix = await runMix(server.url, server.pid, config);
    log(`mix ${mix.rps} req/s, p99 ${mix.latencyMs.p99} ms, errors ${mix.errors}, timeouts ${mix.timeouts}, non-2xx ${mix.non2xx}`);
    const peakBytes = peakRssOf(server.pid) ?? 0;

    let firstResults: FirstResults | undefined;
    if (appSize) {
      try {
        // The API takes the app's default base path from config.json: the same server.
        firstResults = await timeToFirstResults(server.url, `/lit?${new URLSearchParams({ q: benchmarkTerms.common })}`, config.ttfrRuns);
        log(`time to first results: median ${firstResults.p50} ms ('${firstResults.countText}')`);
      } catch (error) {
        appError = (error as Error).message;
        log(`browser measurement failed: ${appError}`);
      }
    }

    await server.stop();
    server = undefined;
    let importWhileServing: ImportResult | undefined;
    if (config.importRecords > 0) {
      importWhileServing = await measureImport(corpus.path, config.importRecords, config.importWrites, log);
      log(
        `import of ${importWhileServing.records} records: ${importWhileServing.importSeconds.toFixed(1)} s; found by the running server ${importWhileServing.foundSeconds.toFixed(1)} s after its start (${importWhileServing.badAnswers} wrong answers of ${importWhileServing.polls})`,
      );
    }

    writeResults({
      ...runInfo(),
      floor,
      traffic,
      classes,
      isolation,
      mix,
      ...(importWhileServing ? { importWhileServing } : {}),
      memory: { idleBytes, afterClassesBytes, peakBytes },
      ...(knownItems ? { knownItems } : {}),
      ...(peer ? { peer } : {}),
      ...(appSize ? { app: { size: appSize, ...(firstResults ? { firstResults } : {}), ...(appError ? { error: appError } : {}) } } : {}),
    });
  } catch (error) {
    if (server) console.error(server.output());
    throw error;
  } finally {
    client.close();
    await floorServer?.stop();
    await server?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
