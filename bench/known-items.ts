import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deploymentByKey } from '../src/deployments/registry';
import type { DeploymentKey } from '../src/deployments/schema';
import {
  firstPageRows,
  knownItemQueries,
  knownItems,
  mixedMirror,
  runKnownItemQuery,
  summarizeKnownItems,
  type FormSummary,
  type KnownItemSearcher,
} from '../src/server/corpus/known-items';
import { startServer } from '../src/server/http/server';
import { readUpstreamFiles } from '../src/server/import/files';
import { postgresUnavailable, startCluster } from '../src/server/store/postgres/cluster.test-support';
import { openPgStore } from '../src/server/store/postgres/pg-store';
import { openPgRecordWriter } from '../src/server/store/postgres/pg-writer';
import { openStore, openStoreWriter } from '../src/server/store/sqlite/sqlite';
import type { RecordStore, StoredRecord } from '../src/server/store/types';
import { int } from './config';
import { singleClient } from './http-client';
import { gitCommit, load1, machine } from './machine';
import { freePort, repoRoot } from './processes';
import { writeReadme } from './report';

/**
 * The known-item benchmark (issue 39 item 7): the real DC1 and LIT records shipped in
 * data/real, mixed into a mirror of generated records of the same deployments, and for each of
 * their works the searches a person who remembers it would type (src/server/corpus/known-items.ts),
 * sent over HTTP as the app sends them, on each store: is the work first, on the first page,
 * and its reciprocal rank; for a search that finds nothing, the suggestion's results as the app
 * shows them.
 */

const realFiles: Record<'DC1' | 'LIT', readonly string[]> = {
  DC1: ['dc-v1-geothermal-and-more-250.json', 'dc-v1-plasma-lab-209.json'],
  LIT: ['lit-v1-datasets-40.json', 'lit-v1-datasets-xml-sample.xml'],
};

const realPath = (file: string) => fileURLToPath(new URL(`../data/real/${file}`, import.meta.url));

/** Each deployment's real records, and `generated` generated ones mixed in. */
export function knownItemContent(generated: number, seed: number): { key: DeploymentKey; real: StoredRecord[]; all: StoredRecord[] }[] {
  return (['DC1', 'LIT'] as const).map((key) => {
    const deployment = deploymentByKey(key)!;
    const real = readUpstreamFiles(deployment, realFiles[key].map(realPath));
    return { key, real, all: mixedMirror(deployment, real, generated, seed) };
  });
}

export interface StoreKnownItems {
  readonly store: string;
  readonly forms: readonly FormSummary[];
  readonly seconds: number;
}

export interface KnownItemsResult {
  readonly generatedPerDeployment: number;
  readonly realRecords: Record<string, number>;
  readonly works: Record<string, number>;
  readonly seed: number;
  readonly rows: number;
  readonly stores: readonly StoreKnownItems[];
}

/** Asks a server as the app does: `{base}/records?q=…&rows=…` and `{base}/suggest?q=…`. */
export function httpSearcher(origin: string): KnownItemSearcher & { close(): void } {
  const client = singleClient();
  const base = (key: DeploymentKey) => `${origin}${deploymentByKey(key)!.basePath}`;
  return {
    async search(key, q, rows) {
      const response = await client.get(`${base(key)}/records?${new URLSearchParams({ q, rows: String(rows) })}`);
      if (response.status !== 200) throw new Error(`search ${q}: HTTP ${response.status} ${response.body.toString().slice(0, 200)}`);
      const records = JSON.parse(response.body.toString('utf8')) as { repo_id: string }[];
      return { total: Number(response.headers['x-total-count']), ids: records.map((record) => record.repo_id) };
    },
    async suggest(key, q) {
      const response = await client.get(`${base(key)}/suggest?${new URLSearchParams({ q })}`);
      if (response.status !== 200) return undefined;
      return (JSON.parse(response.body.toString('utf8')) as { suggestion: { q: string } | null }).suggestion?.q;
    },
    close: () => client.close(),
  };
}

/** Every work's queries against one served store. */
export async function measureStore(
  name: string,
  store: RecordStore,
  content: ReturnType<typeof knownItemContent>,
  seed: number,
): Promise<StoreKnownItems> {
  const started = performance.now();
  const server = await startServer({ store, port: 0, host: '127.0.0.1' });
  const searcher = httpSearcher(server.url);
  try {
    const queries = content.flatMap(({ key, real }) => knownItemQueries(knownItems(key, real), seed));
    const outcomes = [];
    for (const query of queries) outcomes.push(await runKnownItemQuery(searcher, query));
    return { store: name, forms: summarizeKnownItems(outcomes), seconds: Math.round((performance.now() - started) / 100) / 10 };
  } finally {
    searcher.close();
    await server.close();
  }
}

/**
 * The same content in PostgreSQL, served from its local index as `records serve --store
 * postgres://…` serves it, on a throwaway cluster that closing the store destroys; undefined
 * where PostgreSQL is not installed.
 */
export async function postgresStore(
  content: ReturnType<typeof knownItemContent>,
  log: (line: string) => void,
): Promise<RecordStore | undefined> {
  const unavailable = postgresUnavailable();
  if (unavailable) {
    log(`known items: PostgreSQL skipped (${unavailable})`);
    return undefined;
  }
  const cluster = await startCluster({ port: freePort });
  const indexDir = mkdtempSync(join(tmpdir(), 'records-known-items-pg-'));
  try {
    const writer = await openPgRecordWriter(cluster.primary.url);
    try {
      for (const { key, all } of content) await writer.put(key, all);
    } finally {
      await writer.close();
    }
    const store = await openPgStore(cluster.primary.url, { indexDir, open: async (path) => openStore(path), log: () => undefined });
    return {
      ...store,
      async close() {
        await store.close();
        await cluster.destroy();
        rmSync(indexDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await cluster.destroy();
    rmSync(indexDir, { recursive: true, force: true });
    throw error;
  }
}

/** The SQLite store's figures, and the PostgreSQL store's where PostgreSQL is installed. */
export async function measureKnownItems(generated: number, seed: number, log: (line: string) => void): Promise<KnownItemsResult> {
  const content = knownItemContent(generated, seed);
  const dir = mkdtempSync(join(tmpdir(), 'records-known-items-'));
  const stores: StoreKnownItems[] = [];
  try {
    const path = join(dir, 'records.db');
    const writer = openStoreWriter(path, { bulk: true });
    try {
      for (const { key, all } of content) writer.put(key, all);
    } finally {
      writer.close();
    }
    const sqlite = openStore(path);
    try {
      stores.push(await measureStore('SQLite', sqlite, content, seed));
    } finally {
      await sqlite.close();
    }
    const pg = await postgresStore(content, log);
    if (pg) {
      try {
        stores.push(await measureStore('PostgreSQL', pg, content, seed));
      } finally {
        await pg.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const { store, forms } of stores) {
    for (const form of forms) {
      log(
        `known items ${store.padEnd(10)} ${form.form.padEnd(16)} n ${String(form.n).padStart(4)}  first ${pct(form.first)}  first page ${pct(form.firstPage)}  MRR ${form.mrr.toFixed(3)}${form.viaSuggestion ? `  via suggestion ${form.viaSuggestion}` : ''}${form.target && !form.target.met ? '  TARGET MISSED' : ''}`,
      );
    }
  }
  return {
    generatedPerDeployment: generated,
    realRecords: Object.fromEntries(content.map(({ key, real }) => [key, real.length])),
    works: Object.fromEntries(content.map(({ key, real }) => [key, knownItems(key, real).length])),
    seed,
    rows: firstPageRows,
    stores,
  };
}

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

/** A run of the known-item benchmark alone, as written to bench/results/<date>-known-items.json. */
export interface KnownItemsRun {
  readonly date: string;
  readonly command: string;
  readonly durationSeconds: number;
  readonly machine: ReturnType<typeof machine>;
  readonly load1: { readonly start: number; readonly end: number };
  readonly git: ReturnType<typeof gitCommit>;
  readonly knownItems: KnownItemsResult;
}

/** Mirror size of the known-item benchmark: generated records per deployment beside the real ones. */
export const knownItemsGenerated = () => int('BENCH_KNOWN_ITEMS_GENERATED', 10_000);

async function main() {
  const started = performance.now();
  const date = new Date().toISOString();
  const loadStart = load1();
  const log = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const settings = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_'))
    .map(([name, value]) => `${name}=${value}`)
    .sort();
  const command = [...settings, 'npm run bench:known-items'].join(' ');
  log(`${command} (load average ${loadStart})`);
  const knownItems = await measureKnownItems(knownItemsGenerated(), int('BENCH_SEED', 1), log);
  const run: KnownItemsRun = {
    date,
    command,
    durationSeconds: Math.round((performance.now() - started) / 1000),
    machine: machine(),
    load1: { start: loadStart, end: load1() },
    git: gitCommit(),
    knownItems,
  };
  const dir = resolve(repoRoot, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const name = `${date.replace(/[:]/g, '-').replace(/\.\d+Z$/, 'Z')}-known-items.json`;
  writeFileSync(resolve(dir, name), `${JSON.stringify(run, null, 2)}\n`);
  writeReadme();
  log(`wrote bench/results/${name} and bench/README.md`);
}

// `npm run bench:known-items`: this benchmark alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
