import autocannon from 'autocannon';
import { availableParallelism } from 'node:os';
import type { BenchConfig } from './config';
import { singleClient, type SingleClient } from './http-client';
import { waitForQuiet } from './machine';
import { facetsBeside, learnVocabulary, queryLog, trafficClasses, warmupWords, type QueryLog, type TrafficClass } from './query-log';
import { summarize, type Summary } from './stats';

/**
 * Real traffic (issue 29): distinct queries per class from the corpus's own query log,
 * each sent once to a server that remembers no search (`--search-cache-mb 0`), then a mix
 * of distinct searches at the load test's concurrency with and without the facets request
 * the app sends beside each, against the floor (node:http answering a prebuilt page) at the
 * same concurrency in the same run.
 */

export interface TrafficClassResult extends Summary {
  readonly id: string;
  readonly label: string;
  readonly errors: number;
  /** Median X-Total-Count of its queries: how broad the class really is on this corpus. */
  readonly medianTotal: number;
  /** The class ran out of distinct queries before `samples`. */
  readonly exhausted: boolean;
  readonly examples: readonly string[];
}

export interface ThroughputResult {
  readonly seconds: number;
  readonly concurrency: number;
  readonly requests: number;
  readonly rps: number;
  /** Searches per second: with a facets request beside each, half the requests. */
  readonly searchesPerSecond: number;
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number };
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  /** The log ran out of distinct searches and some were sent again. */
  readonly repeated: number;
}

export interface TrafficResult {
  /** Records sampled to learn the corpus's vocabulary. */
  readonly sampledRecords: number;
  /**
   * The first "Did you mean" requests after the server's start, one per worker at once: each
   * worker builds its deployment's vocabulary on its first (suggest/vocabulary.ts), so this is
   * what the first person to make a slip after a start waits.
   */
  readonly firstSuggestMs?: number;
  readonly classes: readonly TrafficClassResult[];
  readonly floor: ThroughputResult;
  readonly mix: ThroughputResult & { readonly ofFloor: number };
  readonly mixWithFacets: ThroughputResult & { readonly ofFloor: number };
}

async function measureDistinct(
  client: SingleClient,
  origin: string,
  log: QueryLog,
  trafficClass: TrafficClass,
  config: BenchConfig,
  sent: string[],
): Promise<TrafficClassResult> {
  await waitForQuiet(config.quietSeconds);
  const samples: number[] = [];
  const totals: number[] = [];
  const examples: string[] = [];
  let errors = 0;
  let exhausted = false;
  const deadline = performance.now() + config.classSeconds * 1000;
  while (samples.length < config.samples && performance.now() < deadline) {
    const path = log.next(trafficClass);
    if (!path) {
      exhausted = true;
      break;
    }
    if (examples.length < 3) examples.push(decodeURIComponent(path.replace(/\+/g, ' ')));
    sent.push(path);
    const response = await client.get(origin + path, config.timeoutSeconds * 1000).catch(() => undefined);
    if (response?.status !== 200) errors++;
    else {
      samples.push(response.ms);
      totals.push(Number(response.headers['x-total-count'] ?? Number.NaN));
    }
  }
  const sortedTotals = totals.sort((a, b) => a - b);
  return {
    id: trafficClass.id,
    label: trafficClass.label,
    errors,
    medianTotal: sortedTotals[Math.floor(sortedTotals.length / 2)] ?? Number.NaN,
    exhausted,
    examples,
    ...summarize(samples),
  };
}

/** `concurrency` keep-alive connections for `seconds`, each sending `paths` in turn (a search, then maybe its facets). */
export async function throughput(
  origin: string,
  config: BenchConfig,
  next: () => string | undefined,
  { withFacets = false } = {},
): Promise<ThroughputResult> {
  await waitForQuiet(config.quietSeconds);
  let repeated = 0;
  let last = '/';
  const search = () => {
    const path = next();
    if (path === undefined) repeated++;
    else last = path;
    return last;
  };
  const requests: autocannon.Request[] = withFacets
    ? [
        { setupRequest: (request, context: { search?: string }) => ({ ...request, path: (context.search = search()) }) },
        { setupRequest: (request, context: { search?: string }) => ({ ...request, path: facetsBeside(context.search ?? last) }) },
      ]
    : [{ setupRequest: (request) => ({ ...request, path: search() }) }];
  const result = await autocannon({
    url: origin,
    connections: config.concurrency,
    duration: config.mixSeconds,
    timeout: config.timeoutSeconds,
    headers: { accept: 'application/json' },
    requests,
  });
  const rps = result.requests.total / config.mixSeconds;
  return {
    seconds: config.mixSeconds,
    concurrency: config.concurrency,
    requests: result.requests.total,
    rps: Math.round(rps * 10) / 10,
    searchesPerSecond: Math.round((withFacets ? rps / 2 : rps) * 10) / 10,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    repeated,
  };
}

/** The whole measurement; `floorOrigin` serves the prebuilt page. */
export async function measureTraffic(
  client: SingleClient,
  origin: string,
  floorOrigin: string,
  config: BenchConfig,
  log: (line: string) => void,
  /** Filled with the paths each class sent, for the in-process peers (fts5-peer.ts). */
  sent?: Map<string, { label: string; paths: string[] }>,
): Promise<TrafficResult> {
  const vocabulary = learnVocabulary(config.records, config.seed);
  const classes = trafficClasses(vocabulary);
  const queries = queryLog(config.seed);
  log(`traffic: query log from ${vocabulary.sampled.toLocaleString('en')} sampled records; distinct queries, nothing cached`);
  // Every worker's vocabulary first (each builds its own on its first "Did you mean"), with
  // patience: rounds of concurrent requests, twice as many as the pool has workers (one per core
  // and one more), until a round finds every worker with its vocabulary built (each answer
  // under a second). The first round is what the first person to make a slip after a start waits.
  let firstSuggestMs: number | undefined;
  const suggestClass = classes.find((c) => c.id === 'suggest3');
  for (let round = 0; suggestClass && round < 10; round++) {
    const paths = Array.from({ length: 2 * (availableParallelism() + 1) }, () => queries.next(suggestClass)).filter(
      (path) => path !== undefined,
    );
    const times = await Promise.all(
      paths.map(async (path) => {
        const own = singleClient();
        try {
          const response = await own.get(origin + path, 600_000);
          if (response.status !== 200) throw new Error(`"Did you mean" warm-up: HTTP ${response.status} ${response.body.toString()}`);
          return response.ms;
        } finally {
          own.close();
        }
      }),
    );
    const slowest = Math.round(Math.max(...times));
    firstSuggestMs ??= slowest;
    log(`traffic: "Did you mean" warm-up round ${round + 1}: slowest of ${times.length} at once ${slowest} ms`);
    if (slowest < 1000) break;
  }
  // A server that has answered some traffic, as a running one has: its code compiled by the
  // JIT before the first class is timed. The warm-up's queries come from the log, so none is timed later.
  // The term classes are too scarce to spend on it: single words from the vocabulary's gaps stand in for them.
  for (const trafficClass of [...classes.filter((c) => !c.scarce), warmupWords(vocabulary)]) {
    for (let w = 0; w < config.warmup; w++) {
      const path = queries.next(trafficClass);
      // Patient: a worker's first request of a kind may build what it reads (a vocabulary, say).
      if (path) await client.get(origin + path, 600_000);
    }
  }
  const results: TrafficClassResult[] = [];
  for (const trafficClass of classes) {
    const paths: string[] = [];
    sent?.set(trafficClass.id, { label: trafficClass.label, paths });
    const result = await measureDistinct(client, origin, queries, trafficClass, config, paths);
    log(
      `traffic ${result.id.padEnd(14)} n ${String(result.n).padStart(4)}${result.exhausted ? ' (all there are)' : ''}  median total ${String(result.medianTotal).padStart(8)}  p50 ${result.p50}  p95 ${result.p95}${result.errors ? `  ERRORS ${result.errors}` : ''}`,
    );
    results.push(result);
  }
  const floor = await throughput(floorOrigin, config, () => '/');
  log(`traffic floor ${floor.rps} req/s at concurrency ${config.concurrency}`);
  const mix = await throughput(origin, config, queries.mixed(classes));
  log(`traffic mix ${mix.rps} req/s (${Math.round((mix.rps / floor.rps) * 100)}% of the floor), p99 ${mix.latencyMs.p99} ms`);
  const mixWithFacets = await throughput(origin, config, queries.mixed(classes), { withFacets: true });
  log(
    `traffic mix + facets ${mixWithFacets.rps} req/s, ${mixWithFacets.searchesPerSecond} searches/s (${Math.round((mixWithFacets.rps / floor.rps) * 100)}% of the floor), p99 ${mixWithFacets.latencyMs.p99} ms`,
  );
  const ofFloor = (result: ThroughputResult) => Math.round((result.rps / floor.rps) * 1000) / 1000;
  return {
    sampledRecords: vocabulary.sampled,
    ...(firstSuggestMs !== undefined ? { firstSuggestMs } : {}),
    classes: results,
    floor,
    mix: { ...mix, ofFloor: ofFloor(mix) },
    mixWithFacets: { ...mixWithFacets, ofFloor: ofFloor(mixWithFacets) },
  };
}
