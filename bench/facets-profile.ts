/**
 * The facets requests of the traffic benchmark, in this process and without any cache:
 * what `/facets` costs the engine per class, minus HTTP and the worker pool.
 *   npx tsx bench/facets-profile.ts bench/tmp/lit-1m.db [RECORDS] [QUERIES]
 */
import { deploymentByKey } from '../src/deployments/registry';
import { parseListRequest } from '../src/server/http/criteria';
import { parseFacetsRequest } from '../src/server/http/facets';
import { parseQueryString } from '../src/server/http/query-string';
import { openEngine } from '../src/server/store/sqlite/query-engine';
import { learnVocabulary, queryLog, trafficClasses } from './query-log';
import { asServed } from './served-engine';

const [path, recordsArg, queriesArg] = process.argv.slice(2);
if (!path) throw new Error('usage: npx tsx bench/facets-profile.ts DATABASE [RECORDS] [QUERIES]');
const lit = deploymentByKey('LIT')!;
const engine = openEngine(path, asServed);
const records = Number(recordsArg ?? engine.count('LIT'));
const queries = Number(queriesArg ?? 40);
let started = performance.now();
engine.warm();
console.log(`warm: ${(performance.now() - started).toFixed(0)} ms`);
const log = queryLog(7);
for (const trafficClass of trafficClasses(learnVocabulary(records, 1)).filter((c) => c.id.startsWith('facets'))) {
  const times: number[] = [];
  const slowest: [number, string][] = [];
  for (let i = 0; i < queries; i++) {
    const url = log.next(trafficClass);
    if (!url) break;
    const { criteria: pairs, requests } = parseFacetsRequest(lit, parseQueryString(url.slice(url.indexOf('?') + 1)));
    const { criteria } = parseListRequest(lit, pairs);
    started = performance.now();
    engine.facets('LIT', criteria, requests);
    times.push(performance.now() - started);
    slowest.push([times.at(-1)!, decodeURIComponent(url.slice(url.indexOf('?') + 1))]);
  }
  const sorted = times.slice().sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  console.log(`${trafficClass.id.padEnd(16)} n=${times.length} p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  max ${at(1)} ms`);
  if (process.env.SLOWEST)
    for (const [ms, query] of slowest.sort((a, b) => b[0] - a[0]).slice(0, Number(process.env.SLOWEST)))
      console.log(`  ${ms.toFixed(1)} ms ${query}`);
}
engine.close();
