/**
 * The engine's cost per query class over the query log's distinct queries, in this process
 * and thread, uncached: what issue 41's in-process peer comparison timed. For each search
 * class, up to PER_CLASS distinct queries drawn as the real-traffic run draws them
 * (bench/query-log.ts, the corpus's seed), timed as the first page's rank (its total and
 * first 20) with and without fetching its records, and as the count alone and the first 20
 * alone. Each measure is a pass over every query once, on an engine opened for the pass, so
 * what a reader keeps (tokens, common tokens' positions) is only what earlier queries left;
 * a query's time is its least over PASSES passes, so a busy machine's pauses fall out.
 * Below the table, each class's slowest queries by rank: a class's p95 is a handful of them.
 *   npx tsx bench/class-profile.ts DATABASE RECORDS SEED [PER_CLASS] [ROUNDS] [CLASS,CLASS...]
 */
import { deploymentByKey } from '../src/deployments/registry';
import { TextSearch } from '../src/server/engine/search';
import { parseListRequest } from '../src/server/http/criteria';
import { parseQueryString } from '../src/server/http/query-string';
import { openEngine } from '../src/server/store/sqlite/query-engine';
import { openPostings } from '../src/server/store/sqlite/postings-reader';
import type { QueryEngine } from '../src/server/store/engine';
import type { Criteria } from '../src/server/store/types';
import Database from 'better-sqlite3';
import { IdSet } from '../src/server/engine/id-set';
import { drawClassQueries } from './class-draw';
import { asServed } from './served-engine';
import { percentile } from './stats';

const [path, recordsArg, seedArg, perClassArg, passesArg, onlyArg] = process.argv.slice(2);
if (!path || !recordsArg || !seedArg)
  throw new Error('usage: npx tsx bench/class-profile.ts DATABASE RECORDS SEED [PER_CLASS] [PASSES] [CLASS,...]');
const perClass = Number(perClassArg ?? 100);
const passes = Math.max(1, Number(passesArg ?? 3));
const only = onlyArg?.split(',');
const page = 20;
const slowest = 5;
const lit = deploymentByKey('LIT')!;

const drawn = drawClassQueries(Number(recordsArg), Number(seedArg), perClass);

const fetchPage = (engine: QueryEngine, criteria: Criteria) => {
  const ranked = engine.rank('LIT', criteria, page);
  engine.fetch('LIT', ranked.ids.subarray(0, page));
};

/** One pass of one measure: every query once, on an engine and a reader opened for the pass (nothing they keep carries over). */
function pass(into: Map<string, number[][]>, measure: number): void {
  const engine = openEngine(path!, asServed);
  engine.warmSearch();
  const db = new Database(path, { readonly: true, fileMustExist: true });
  // Its snapshot too, rather than a transaction per statement.
  db.exec('BEGIN');
  const reader = openPostings(db, lit)!;
  const capacity = reader.lengths.length;
  const universe = () =>
    IdSet.of(
      Array.from({ length: capacity - 1 }, (_, i) => i + 1),
      capacity,
    );
  for (const { trafficClass, paths } of drawn) {
    if (only && !only.includes(trafficClass.id)) continue;
    const times = into.get(trafficClass.id) ?? [[], [], [], []];
    into.set(trafficClass.id, times);
    paths.forEach((p, q) => {
      const { criteria } = parseListRequest(lit, parseQueryString(p.slice(p.indexOf('?') + 1)));
      const first = { ...criteria, offset: 0, limit: page };
      const text = () => TextSearch.of(reader, criteria.text, { capacity, universe, filter: undefined })!;
      const runs = [
        () => engine.rank('LIT', first, page),
        () => fetchPage(engine, first),
        // Text alone (no filters): the count and the first page apart, each from a compiled query.
        () => text().count(),
        () => text().rank(page, true, undefined),
      ];
      if (measure >= 2 && (criteria.dates.length > 0 || criteria.exact.length > 0)) return;
      const started = performance.now();
      runs[measure]!();
      const ms = performance.now() - started;
      const list = times[measure]!;
      list[q] = Math.min(list[q] ?? Infinity, ms);
    });
  }
  engine.close();
  db.close();
}

const times = new Map<string, number[][]>();
for (let p = 0; p < passes; p++) for (let measure = 0; measure < 4; measure++) pass(times, measure);
const show = (samples: number[]) => {
  const sorted = samples.filter((ms) => ms !== undefined).sort((a, b) => a - b);
  // Three decimals, as the peer run reads tantivy's: at two, a rare word's 0.045 ms printed as 0.05.
  return [50, 95].map((p) => percentile(sorted, p).toFixed(3).padStart(7)).join(' ');
};
console.log(
  `${'class'.padEnd(12)}    n     rank p50/p95    +fetch p50/p95     count p50/p95    top-20 p50/p95  (ms; each query's least of ${passes} passes)`,
);
for (const { trafficClass, paths } of drawn) {
  const kinds = times.get(trafficClass.id);
  if (kinds) console.log(`${trafficClass.id.padEnd(12)} ${String(paths.length).padStart(4)}  ${kinds.map(show).join('  ')}`);
}

console.log(`\nslowest ${slowest} by rank (ms)`);
for (const { trafficClass, paths } of drawn) {
  const ranks = times.get(trafficClass.id)?.[0];
  if (!ranks) continue;
  const order = paths
    .map((p, q) => ({ ms: ranks[q]!, query: decodeURIComponent(p.slice(p.indexOf('?') + 1)) }))
    .sort((x, y) => y.ms - x.ms);
  console.log(
    `${trafficClass.id.padEnd(12)} ${order
      .slice(0, slowest)
      .map(({ ms, query }) => `${ms.toFixed(2)} ${query}`)
      .join('  ')}`,
  );
}
