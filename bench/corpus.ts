import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deploymentByKey } from '../src/deployments/registry';
import { defaultStartId, generateRecords } from '../src/server/corpus/generate';
import { gatherScript } from '../src/server/store/sqlite/indexer/gather-thread';
import { openStoreWriter } from '../src/server/store/sqlite/sqlite';
import type { BenchConfig } from './config';

/**
 * The benchmark database: `count` generated LIT records written through the same code
 * path as `records generate` (openStoreWriter + generateRecords, one put). Building 1M
 * records takes minutes, so a database is reused when its fingerprint matches: the
 * generator's output (sampled records; each record is seeded by its own id, so a sample
 * stands for the whole corpus), the seed and count, and the store's writing code.
 */

const root = fileURLToPath(new URL('../', import.meta.url));
export const tmpDir = resolve(root, 'bench/tmp');

/** Source files whose change alters what the writer puts on disk. */
export const storeSources = [
  'src/deployments/search-model.ts',
  'src/formats/index-text.ts',
  'src/formats/keys.ts',
  'src/formats/sort-keys.ts',
  'src/server/store/facets/facet-values.ts',
  'src/server/store/sqlite/schema.ts',
  'src/server/store/sqlite/sqlite-writer.ts',
  'src/server/store/sqlite/indexer/postings.ts',
  'src/server/store/sqlite/indexer/postings-update.ts',
  'src/server/store/sqlite/indexer/text-instances.ts',
  'src/server/store/sqlite/key-lists.ts',
  'src/server/engine/postings/block-postings.ts',
  'src/server/engine/postings/patched-runs.ts',
  'src/server/engine/postings/token-columns.ts',
  'src/server/engine/postings/positions.ts',
  'src/server/engine/postings/varint.ts',
];

export interface CorpusInfo {
  readonly path: string;
  readonly fingerprint: string;
  readonly records: number;
  readonly seed: number;
  readonly ingestSeconds: number;
  /** CPU (user + system) of the ingest, where the build recorded it. */
  readonly cpuSeconds?: number;
  readonly bytes: number;
  readonly builtAt: string;
  /** Whether this run built the database (false: reused one built earlier). */
  readonly builtNow: boolean;
}

export function fingerprint(records: number, seed: number): string {
  const hash = createHash('sha256').update(`LIT ${records} ${seed}\n`);
  const lit = deploymentByKey('LIT')!;
  const step = Math.max(1, Math.floor(records / 256));
  for (let offset = 0; offset < records; offset += step) {
    const [stored] = generateRecords(lit, 1, { seed, startId: defaultStartId + offset });
    hash.update(JSON.stringify(stored));
  }
  for (const file of storeSources) hash.update(readFileSync(resolve(root, file)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * A database given by path (BENCH_DB) is measured as it is. Its .json companion, written
 * when this module built it, supplies the ingest time; without one the time is unknown.
 */
export function existingCorpus(path: string, log: (line: string) => void): CorpusInfo {
  if (!existsSync(path)) throw new Error(`BENCH_DB: no database at ${path}`);
  const infoPath = `${path}.json`;
  const recorded = existsSync(infoPath) ? (JSON.parse(readFileSync(infoPath, 'utf8')) as CorpusInfo) : undefined;
  log(`measuring ${path} as given${recorded ? ` (fingerprint ${recorded.fingerprint}, built ${recorded.builtAt})` : ''}`);
  return {
    fingerprint: recorded?.fingerprint ?? 'unknown',
    records: recorded?.records ?? Number.NaN,
    seed: recorded?.seed ?? Number.NaN,
    ingestSeconds: recorded?.ingestSeconds ?? Number.NaN,
    ...(recorded?.cpuSeconds !== undefined ? { cpuSeconds: recorded.cpuSeconds } : {}),
    builtAt: recorded?.builtAt ?? 'unknown',
    bytes: statSync(path).size,
    path: resolve(path),
    builtNow: false,
  };
}

export async function prepareCorpus(records: number, seed: number, log: (line: string) => void): Promise<CorpusInfo> {
  const print = fingerprint(records, seed);
  const path = resolve(tmpDir, `lit-${records}-${print}.db`);
  const infoPath = `${path}.json`;
  if (existsSync(path) && existsSync(infoPath)) {
    const info = JSON.parse(readFileSync(infoPath, 'utf8')) as CorpusInfo;
    log(`reusing ${path} (fingerprint ${print}, built ${info.builtAt})`);
    return { ...info, path, builtNow: false };
  }
  mkdirSync(tmpDir, { recursive: true });
  const building = `${path}.building`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(building + suffix, { force: true });
  log(`generating ${records.toLocaleString('en')} LIT records into ${path} ...`);
  // The text gathered on a thread of its own, as `records generate` gathers it.
  const script = await gatherScript();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const writer = openStoreWriter(building, { bulk: true, gatherScript: script });
  try {
    writer.put('LIT', generateRecords(deploymentByKey('LIT')!, records, { seed, startId: defaultStartId }));
  } finally {
    writer.close();
  }
  const ingestSeconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  renameSync(building, path);
  const info: CorpusInfo = {
    path,
    fingerprint: print,
    records,
    seed,
    ingestSeconds,
    cpuSeconds: Math.round((used.user + used.system) / 1e5) / 10,
    bytes: statSync(path).size,
    builtAt: new Date().toISOString(),
    builtNow: true,
  };
  writeFileSync(infoPath, `${JSON.stringify(info, null, 2)}\n`);
  log(`ingested in ${ingestSeconds.toFixed(1)} s, ${(info.bytes / 1e9).toFixed(2)} GB`);
  return info;
}

/** The database a run measures: BENCH_DB as given, else the generated corpus of BENCH_RECORDS. */
export async function benchCorpus(config: BenchConfig, log: (line: string) => void): Promise<CorpusInfo> {
  return config.db ? existingCorpus(config.db, log) : prepareCorpus(config.records, config.seed, log);
}
