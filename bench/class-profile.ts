/**
 * The engine's cost per query class over the query log's distinct queries, in this process
 * and thread, uncached: what issue 41's in-process peer comparison timed. For each search
 * class, up to PER_CLASS distinct queries drawn as the real-traffic run draws them
 * (bench/query-log.ts, the corpus's seed); each is timed ROUNDS times (the fastest kept, so
 * a busy machine's pauses fall out) as the first page's rank (total and first 20) with and
 * without fetching its records, and split into the count alone and the top 20 alone.
 *   npx tsx bench/class-profile.ts DATABASE RECORDS SEED [PER_CLASS] [ROUNDS] [CLASS,CLASS...]
 */
import { deploymentByKey } from '../src/deployments/registry';
import { TextSearch } from '../src/server/engine/search';
import { parseListRequest } from '../src/server/http/criteria';
import { parseQueryString } from '../src/server/http/query-string';
import { openEngine } from '../src/server/store/sqlite/query-engine';
import { openPostings } from '../src/server/store/sqlite/postings-reader';
import Database from 'better-sqlite3';
import { IdSet } from '../src/server/engine/id-set';
import { basePath } from './queries';
import { learnVocabulary, queryLog, trafficClasses } from './query-log';
import { summarize } from './stats';

const [path, recordsArg, seedArg, perClassArg, roundsArg, onlyArg] = process.argv.slice(2);
if (!path || !recordsArg || !seedArg)
  throw new Error('usage: npx tsx bench/class-profile.ts DATABASE RECORDS SEED [PER_CLASS] [ROUNDS] [CLASS,...]');
const perClass = Number(perClassArg ?? 100);
const rounds = Math.max(1, Number(roundsArg ?? 3));
const only = onlyArg?.split(',');
const page = 20;
const lit = deploymentByKey('LIT')!;

const classes = trafficClasses(learnVocabulary(Number(recordsArg), Number(seedArg))).filter((c) => c.search);
const log = queryLog(Number(seedArg));
const drawn = classes.map((trafficClass) => {
  const paths: string[] = [];
  for (let i = 0; i < perClass; i++) {
    const next = log.next(trafficClass);
    if (next === undefined) break;
    paths.push(next);
  }
  return { trafficClass, paths: paths.filter((p) => p.startsWith(`${basePath}/records?`)) };
});

const engine = openEngine(path);
engine.warmSearch();
const db = new Database(path, { readonly: true, fileMustExist: true });
const reader = openPostings(db, lit)!;
const capacity = reader.lengths.length;
const universe = () =>
  IdSet.of(
    Array.from({ length: capacity - 1 }, (_, i) => i + 1),
    capacity,
  );

const fastest = (run: () => void) => {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
};
const show = (samples: number[]) => {
  const s = summarize(samples);
  return `${s.p50.toFixed(2).padStart(7)} ${s.p95.toFixed(2).padStart(7)}`;
};

console.log(`${'class'.padEnd(12)}    n   rank p50/p95  +fetch p50/p95  count p50/p95  top-20 p50/p95  (ms, fastest of ${rounds} each)`);
for (const { trafficClass, paths } of drawn) {
  if (only && !only.includes(trafficClass.id)) continue;
  const rank: number[] = [];
  const fetched: number[] = [];
  const count: number[] = [];
  const top: number[] = [];
  for (const p of paths) {
    const { criteria } = parseListRequest(lit, parseQueryString(p.slice(p.indexOf('?') + 1)));
    const first = { ...criteria, offset: 0, limit: page };
    rank.push(fastest(() => engine.rank('LIT', first, page)));
    fetched.push(
      fastest(() => {
        const ranked = engine.rank('LIT', first, page);
        engine.fetch('LIT', ranked.ids.subarray(0, page));
      }),
    );
    // Text alone (no filters): the count and the top 20 apart.
    if (criteria.dates.length === 0 && criteria.exact.length === 0) {
      const search = () => TextSearch.of(reader, criteria.text, { capacity, universe, filter: undefined })!;
      count.push(fastest(() => search().count()));
      top.push(fastest(() => search().rank(page, true, undefined)));
    }
  }
  console.log(
    `${trafficClass.id.padEnd(12)} ${String(paths.length).padStart(4)}  ${show(rank)}  ${show(fetched)}  ${show(count)}  ${show(top)}`,
  );
}
engine.close();
db.close();
