import autocannon from 'autocannon';
import type { BenchConfig } from './config';
import { waitForQuiet } from './machine';
import { sampleMemory } from './memory';
import { mixPaths } from './queries';

/**
 * The realistic mix at a fixed concurrency (autocannon, `concurrency` keep-alive
 * connections), with the server's memory sampled while it runs. Errors are everything
 * that is not a 2xx: connection errors, timeouts and error statuses.
 */

export interface LoadResult {
  readonly seconds: number;
  readonly concurrency: number;
  readonly requests: number;
  readonly rps: number;
  readonly latencyMs: { p50: number; p90: number; p99: number; max: number };
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly memory: { meanBytes: number; maxBytes: number; samples: number };
  /** Share of the cores busy with other work just before the load test (0–1). */
  readonly backgroundBusy: number;
}

export async function runMix(origin: string, serverPid: number, config: BenchConfig, seconds = config.mixSeconds): Promise<LoadResult> {
  const backgroundBusy = await waitForQuiet(config.quietSeconds);
  const next = mixPaths(20240501, config.records);
  const memory = sampleMemory(serverPid);
  const result = await autocannon({
    url: origin,
    connections: config.concurrency,
    duration: seconds,
    timeout: config.timeoutSeconds,
    headers: { accept: 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, path: next() }) }],
  });
  const mem = memory.stop();
  return {
    seconds,
    concurrency: config.concurrency,
    requests: result.requests.total,
    rps: Math.round((result.requests.total / seconds) * 10) / 10,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    memory: mem,
    backgroundBusy,
  };
}
