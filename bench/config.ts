/**
 * Benchmark settings, all from the environment so a quick run is one variable away
 * (`BENCH_RECORDS=100000 npm run bench`). Defaults are the full run.
 */

export function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number, not '${raw}'`);
  return value;
}

export interface BenchConfig {
  /** LIT records in the generated database. */
  readonly records: number;
  readonly seed: number;
  /** Timed requests per query class (after the warm-up), unless the time cap comes first. */
  readonly samples: number;
  readonly warmup: number;
  /** Cap on the timed part of one query class, so a slow class cannot stall the run. */
  readonly classSeconds: number;
  readonly mixSeconds: number;
  readonly concurrency: number;
  /** Per-request timeout of the load test; a request slower than this counts as a timeout. */
  readonly timeoutSeconds: number;
  readonly ttfrRuns: number;
  /** Longest wait for a quiet machine before each measurement (other processes share the cores). */
  readonly quietSeconds: number;
  /** Skips the app build and the browser measurement. */
  readonly skipApp: boolean;
  /** Records written into a copy of the store while a server reads it (0: skip). */
  readonly importRecords: number;
  /** Writes of importRecords into the copy, one after another (the first timed against a running server). */
  readonly importWrites: number;
  /** An existing database to measure instead of the generated one (its ingest time comes from its .json beside it, if any). */
  readonly db: string | undefined;
  /** Appended to the results file name, e.g. `baseline`. */
  readonly label: string;
  /** Only the real-traffic part: distinct queries per class, the mixes and the floor (results `<date>-traffic.json`). */
  readonly trafficOnly: boolean;
}

export function readConfig(): BenchConfig {
  return {
    records: int('BENCH_RECORDS', 1_000_000),
    seed: int('BENCH_SEED', 1),
    samples: int('BENCH_SAMPLES', 200),
    warmup: int('BENCH_WARMUP', 10),
    classSeconds: int('BENCH_CLASS_SECONDS', 30),
    mixSeconds: int('BENCH_MIX_SECONDS', 20),
    concurrency: int('BENCH_CONCURRENCY', 32),
    timeoutSeconds: int('BENCH_TIMEOUT_SECONDS', 10),
    ttfrRuns: int('BENCH_TTFR_RUNS', 5),
    quietSeconds: int('BENCH_QUIET_SECONDS', 60),
    importRecords: int('BENCH_IMPORT_RECORDS', 1000),
    importWrites: int('BENCH_IMPORT_WRITES', 10),
    skipApp: process.env.BENCH_SKIP_APP === '1',
    db: process.env.BENCH_DB || undefined,
    label: (process.env.BENCH_LABEL ?? '').replace(/[^\w.-]/g, ''),
    trafficOnly: process.env.BENCH_TRAFFIC_ONLY === '1',
  };
}
