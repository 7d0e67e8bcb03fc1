import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadavg } from 'node:os';
import { deploymentByKey } from '../src/deployments/registry';
import { generateRecords } from '../src/server/corpus/generate';
import { harvest, type HarvestOptions, type HarvestReport } from '../src/server/harvest/harvest';
import { openStoreWriter } from '../src/server/store/sqlite/sqlite';
import { tmpDir } from './corpus';
import { machine } from './machine';
import { startChild } from './processes';

/**
 * `npm run bench:harvest`: records per second of a full harvest of HARVEST_RECORDS
 * (default 100,000) DC1 records from a local `records serve` over loopback, then the time
 * of an incremental run after 1,000 records were added to the source. The source database
 * is built once and reused from bench/tmp; the mirror starts empty every run.
 */

const count = Number(process.env.HARVEST_RECORDS ?? 100_000);
const added = 1000;
const concurrency = Number(process.env.HARVEST_CONCURRENCY ?? 1);
const dc1 = deploymentByKey('DC1')!;
const log = (line: string) => console.log(line);

function buildSource(path: string): void {
  if (existsSync(path)) {
    log(`reusing ${path}`);
    return;
  }
  const started = Date.now();
  const building = `${path}.building`;
  rmSync(building, { force: true });
  const writer = openStoreWriter(building);
  writer.put('DC1', generateRecords(dc1, count, { seed: 1 }));
  writer.close();
  renameSync(building, path);
  log(`built ${path} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** Records entered after everything the generator makes, as a source's new arrivals are. */
function addArrivals(path: string): void {
  const arrivals = [...generateRecords(dc1, added, { seed: 2, startId: 80_000_001 })].map((stored, index) => ({
    ...stored,
    record: { ...stored.record, entry_date: `2026-06-${String(1 + (index % 28)).padStart(2, '0')}T09:00:00Z` },
  }));
  const writer = openStoreWriter(path);
  writer.put('DC1', arrivals);
  writer.close();
}

const serveSource = (db: string, port?: number) =>
  startChild(process.execPath, ['bin/records.js', 'serve', '--db', db, '--port', '{port}'], '/api/dc/v1/records?rows=1', {}, port);

/**
 * A run, timed in two parts: until the last page was written, and the writer's close
 * (which rebuilds the deployment's search postings after any write).
 */
async function timedHarvest(label: string, options: HarvestOptions): Promise<void> {
  let lastPageAt = Date.now();
  const progress = { update: () => (lastPageAt = Date.now()), note: log, done: () => {} };
  const started = Date.now();
  const report: HarvestReport = await harvest({ ...options, progress });
  const seconds = report.elapsedMs / 1000;
  const paging = (lastPageAt - started) / 1000;
  log(
    `${label}: ${report.distinct.toLocaleString('en-US')} records (${report.added.toLocaleString('en-US')} new, ${report.unchanged.toLocaleString('en-US')} unchanged) ` +
      `in ${seconds.toFixed(1)} s (${paging.toFixed(1)} s paging and writing, ${(seconds - paging).toFixed(1)} s indexing at close), ` +
      `${Math.round(report.received / seconds).toLocaleString('en-US')} records/s, ${report.requests} requests`,
  );
}

mkdirSync(tmpDir, { recursive: true });
const sourcePath = resolve(tmpDir, `harvest-source-dc1-${count}.db`);
const workPath = resolve(tmpDir, 'harvest-source-work.db');
const mirrorPath = resolve(tmpDir, 'harvest-mirror.db');
buildSource(sourcePath);
copyFileSync(sourcePath, workPath);
for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(mirrorPath + suffix, { force: true });

const m = machine();
log(
  `machine: ${m.cpu}, ${m.cores} cores, node ${m.node}, load ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')} (shared while measuring)`,
);

let source = await serveSource(workPath);
const port = Number(new URL(source.url).port);
const options = {
  deployment: dc1,
  baseUrl: `${source.url}${dc1.basePath}`,
  dbPath: mirrorPath,
  userAgent: 'records-explorer-bench',
  concurrency,
};
try {
  await timedHarvest(`full harvest (concurrency ${concurrency})`, options);
  await source.stop();
  addArrivals(workPath);
  source = await serveSource(workPath, port);
  await timedHarvest(`incremental run after ${added} arrivals`, options);
  log(
    `load after: ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await source.stop();
}
