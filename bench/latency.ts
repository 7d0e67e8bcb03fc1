import type { BenchConfig } from './config';
import type { SingleClient } from './http-client';
import { waitForQuiet } from './machine';
import type { QueryClass } from './queries';
import { summarize, type Summary } from './stats';

/**
 * One client, one request at a time: the latency a single user sees. The first request
 * of a class is reported on its own (`firstMs`), since it pays for anything the server
 * later caches; then a warm-up, then up to `samples` timed requests or `classSeconds`.
 */

export interface ClassResult extends Summary {
  readonly id: string;
  readonly label: string;
  readonly path: string;
  readonly firstMs: number;
  readonly total: number | undefined;
  /** The first repo_ids of the first page: lets two runs check that they return the same records. */
  readonly firstIds: readonly string[];
  readonly errors: number;
  /** The class's own uncached p95 target, where it has one. */
  readonly p95Ms?: number;
  /** Share of the cores busy with other work just before the class ran (0–1). */
  readonly backgroundBusy: number;
}

/**
 * A class measured against a server with search caching off (`--search-cache-mb 0`):
 * every request, warm-up and timed ones alike, is ranked from the database.
 */
export type UncachedResult = Pick<ClassResult, 'firstMs' | 'n' | 'p50' | 'p95' | 'p99' | 'mean' | 'max' | 'errors' | 'backgroundBusy'>;

export function uncachedPart({ firstMs, n, p50, p95, p99, mean, max, errors, backgroundBusy }: ClassResult): UncachedResult {
  return { firstMs, n, p50, p95, p99, mean, max, errors, backgroundBusy };
}

export async function measureClass(
  client: SingleClient,
  origin: string,
  queryClass: QueryClass,
  config: BenchConfig,
): Promise<ClassResult> {
  const backgroundBusy = await waitForQuiet(config.quietSeconds);
  let errors = 0;
  let i = 0;
  const once = async () => {
    const res = await client.get(origin + queryClass.path(i++, config.records), config.timeoutSeconds * 6000);
    if (res.status !== 200) errors++;
    return res;
  };
  const first = await once();
  const totalHeader = first.headers['x-total-count'];
  const body: unknown = first.status === 200 ? JSON.parse(first.body.toString('utf8')) : [];
  const parsed = Array.isArray(body) ? (body as { repo_id: string }[]) : [];
  const warmupDeadline = performance.now() + config.classSeconds * 250;
  for (let w = 0; w < config.warmup && performance.now() < warmupDeadline; w++) await once();
  const samples: number[] = [];
  const deadline = performance.now() + config.classSeconds * 1000;
  while (samples.length < config.samples && (performance.now() < deadline || samples.length < 5)) {
    samples.push((await once()).ms);
  }
  return {
    id: queryClass.id,
    label: queryClass.label,
    path: queryClass.path(0, config.records),
    firstMs: Math.round(first.ms * 100) / 100,
    total: typeof totalHeader === 'string' ? Number(totalHeader) : undefined,
    firstIds: parsed.slice(0, 5).map((record) => record.repo_id),
    errors,
    ...(queryClass.p95Ms ? { p95Ms: queryClass.p95Ms } : {}),
    backgroundBusy,
    ...summarize(samples),
  };
}

/** The same measurement against the in-memory page: the floor every class is compared with. */
export async function measureFloor(client: SingleClient, origin: string, config: BenchConfig): Promise<Summary> {
  for (let w = 0; w < Math.max(config.warmup, 50); w++) await client.get(origin + '/');
  const samples: number[] = [];
  for (let s = 0; s < Math.max(config.samples, 1000); s++) samples.push((await client.get(origin + '/')).ms);
  return summarize(samples);
}
