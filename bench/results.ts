import type { AppSize, FirstResults } from './app';
import { initialJsBudgetBytes } from './js-budget';
import type { BenchConfig } from './config';
import type { CorpusInfo } from './corpus';
import type { ImportResult } from './import-while-serving';
import type { PeerResult } from './fts5-peer';
import type { IsolationResult } from './isolation';
import type { KnownItemsResult } from './known-items';
import type { ClassResult, UncachedResult } from './latency';
import type { LoadResult } from './load';
import type { Machine } from './machine';
import type { Summary } from './stats';
import type { TrafficResult } from './traffic';

/** One query class of a run: repeated requests to the normal server, and (version 2 on) uncached ones. */
export type ClassRow = ClassResult & {
  readonly p50Ratio: number;
  readonly p95Ratio: number;
  /** Absent from version 1, which measured only the normal server. */
  readonly uncached?: UncachedResult;
};

/** What every results file says of its run: when, how, on what machine, code and corpus. */
interface RunHeader {
  readonly label: string;
  readonly date: string;
  readonly command: string;
  readonly durationSeconds: number;
  readonly machine: Machine;
  readonly load1: { readonly start: number; readonly end: number };
  readonly git: { readonly commit: string; readonly dirty: string[] };
  readonly config: BenchConfig;
  readonly corpus: Omit<CorpusInfo, 'path'> & { readonly file: string };
}

/** A run of the real-traffic part alone (`BENCH_TRAFFIC_ONLY=1`), as written to bench/results/<date>-traffic.json. */
export interface TrafficRun extends RunHeader {
  readonly version: 3;
  readonly traffic: TrafficResult;
  /** SQLite FTS5 asked the same searches in process (`bench/fts5-peer.ts`); absent before issue 41 or with BENCH_SKIP_PEERS=1. */
  readonly peer?: PeerResult;
}

/** One benchmark run as written to bench/results/<date>[-label].json. */
export interface BenchResult extends RunHeader {
  /** 1: per-class latency of repeated requests only; 2: also `uncached` per class; 3: also `traffic`. */
  readonly version: 1 | 2 | 3;
  /**
   * false: the server measured remembered no searches (the code before the search cache),
   * so its repeated requests were uncached ones and stand for them.
   */
  readonly searchCache?: boolean;
  /** The in-memory 20-record page: the floor every class is compared with. */
  readonly floor: Summary & { readonly bytes: number };
  readonly classes: readonly ClassRow[];
  /** Distinct queries from the corpus's query log, uncached; the mix with and without facets against the floor (version 3). */
  readonly traffic?: TrafficResult;
  readonly isolation: IsolationResult;
  readonly mix: LoadResult;
  /** Absent before issue 12's write figures. */
  readonly importWhileServing?: ImportResult;
  readonly memory: { readonly idleBytes: number; readonly afterClassesBytes: number; readonly peakBytes: number };
  readonly app?: { readonly size: AppSize; readonly firstResults?: FirstResults; readonly error?: string };
  /** Known-item searches on both stores (`bench/known-items.ts`); absent before issue 39 or with BENCH_SKIP_KNOWN_ITEMS=1. */
  readonly knownItems?: KnownItemsResult;
  readonly peer?: PeerResult;
}

export const targets = {
  p95Ms: 50,
  mixRps: 1000,
  initialJsGzipBytes: initialJsBudgetBytes,
} as const;
