/**
 * The query engine's own cost per query class, in this process and without the cache of
 * search orders: what the first request of a search costs the server, minus HTTP.
 *   npx tsx bench/engine-profile.ts bench/tmp/lit-1000000-<fingerprint>.db [RUNS] [CLASS,CLASS...]
 */
import { deploymentByKey } from '../src/deployments/registry';
import { parseListRequest } from '../src/server/http/criteria';
import { parseQueryString } from '../src/server/http/query-string';
import { openEngine } from '../src/server/store/sqlite/query-engine';
import { basePath, queryClasses } from './queries';
import { asServed } from './served-engine';

const path = process.argv[2];
if (!path) throw new Error('usage: npx tsx bench/engine-profile.ts DATABASE');
const runs = Math.max(2, Number(process.argv[3] ?? 2));
const only = process.argv[4]?.split(',');
const lit = deploymentByKey('LIT')!;
const engine = openEngine(path, asServed);
const records = engine.count('LIT');
let started = performance.now();
engine.warm();
console.log(`warm (repo_id ranks of ${records.toLocaleString('en')} records): ${(performance.now() - started).toFixed(0)} ms`);
console.log(`class        total      first ms  p50 ms    p95 ms   (${runs} runs)`);
for (const queryClass of queryClasses) {
  const path = queryClass.path(0, records);
  // Searches only: the facets classes are another request (bench/facets-profile.ts times them).
  if (!path.startsWith(`${basePath}/records?`) || (only && !only.includes(queryClass.id))) continue;
  const { criteria } = parseListRequest(lit, parseQueryString(path.slice(path.indexOf('?') + 1)));
  const need = Math.max(200, criteria.offset + criteria.limit);
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < runs; i++) {
    started = performance.now();
    total = engine.rank('LIT', criteria, need).total;
    times.push(performance.now() - started);
  }
  const sorted = times.slice(1).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  console.log(
    `${queryClass.id.padEnd(12)} ${String(total).padStart(7)}  ${[times[0]!, at(0.5), at(0.95)].map((ms) => ms.toFixed(1).padStart(9)).join(' ')}`,
  );
}
engine.close();
