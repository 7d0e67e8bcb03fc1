/**
 * Block-max top k against scoring every match, in this process, on a store's LIT postings:
 * for each relevance-ranked query class, the first `need` records both ways (checked equal)
 * and their times, match bitsets built beforehand. What the collector saves, without HTTP,
 * the cache or the filters. Then what compiling a two-word phrase costs (its matches from
 * positions), common words included.
 *   npx tsx bench/top-k-profile.ts DATABASE [RUNS] [NEED,NEED...]
 */
import Database from 'better-sqlite3';
import { deploymentByKey } from '../src/deployments/registry';
import { scoreEverything, topByBlockMax } from '../src/server/engine/collector/block-max';
import { topOrder } from '../src/server/engine/collector/top-k';
import { IdSet } from '../src/server/engine/id-set';
import { lengthNorms } from '../src/server/engine/query/bm25';
import { compileQuery } from '../src/server/engine/query/compile';
import { matchSet } from '../src/server/engine/query/matching';
import { parseListRequest } from '../src/server/http/criteria';
import { parseQueryString } from '../src/server/http/query-string';
import { openPostings } from '../src/server/store/sqlite/postings-reader';
import { queryClasses } from './queries';

const path = process.argv[2];
if (!path) throw new Error('usage: npx tsx bench/top-k-profile.ts DATABASE [RUNS] [NEED,NEED...]');
const runs = Math.max(3, Number(process.argv[3] ?? 21));
const needs = (process.argv[4] ?? '20,200').split(',').map(Number);
const lit = deploymentByKey('LIT')!;
const db = new Database(path, { readonly: true, fileMustExist: true });
const reader = openPostings(db, lit);
if (!reader) throw new Error(`${path} has no LIT postings.`);
const capacity = reader.lengths.length;
const norms = lengthNorms(reader);
const universe = () =>
  IdSet.of(
    Array.from({ length: capacity - 1 }, (_, i) => i + 1),
    capacity,
  );
const median = (times: number[]) => times.slice(1).sort((a, b) => a - b)[Math.floor((times.length - 1) / 2)]!;

console.log(`class         need  matches   every match ms  block-max ms   (median of ${runs - 1} runs)`);
for (const queryClass of queryClasses) {
  const url = queryClass.path(0, reader.rows);
  if (!url.includes('/records?')) continue;
  const { criteria } = parseListRequest(lit, parseQueryString(url.slice(url.indexOf('?') + 1)));
  if (criteria.sort !== 'relevance' || criteria.text.length === 0 || criteria.dates.length > 0) continue;
  const query = compileQuery(reader, criteria.text);
  if (!query || !query.everyMatchScored) continue;
  const matches = query.root.kind === 'leaf' ? undefined : matchSet(query.root, capacity, universe);
  const total = matches ? matches.count() : query.scored[0]!.postings.docs;
  for (const need of needs) {
    const every: number[] = [];
    const pruned: number[] = [];
    for (let run = 0; run < runs; run++) {
      let started = performance.now();
      const expected = topOrder(scoreEverything(query.scored, reader.lengths, norms, matches), true, need, undefined);
      every.push(performance.now() - started);
      started = performance.now();
      const actual = topByBlockMax(query.scored, reader.lengths, norms, matches, need, undefined);
      pruned.push(performance.now() - started);
      if (actual.join() !== expected.join()) throw new Error(`${queryClass.id}: block-max differs from scoring every match`);
    }
    console.log(
      `${queryClass.id.padEnd(12)} ${String(need).padStart(5)} ${String(total).padStart(8)} ${median(every).toFixed(2).padStart(16)} ${median(pruned).toFixed(2).padStart(13)}`,
    );
  }
}

console.log(`phrase              matches   compile ms   (fastest of ${runs} runs)`);
for (const phrase of ['"of the"', '"effect of"', '"molten salt"']) {
  const { criteria } = parseListRequest(lit, parseQueryString(`q=${encodeURIComponent(phrase)}`));
  const times: number[] = [];
  let matches = 0;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    matches = compileQuery(reader, criteria.text)!.scored[0]!.postings.docs;
    times.push(performance.now() - started);
  }
  console.log(
    `${phrase.padEnd(18)} ${String(matches).padStart(8)} ${Math.min(...times)
      .toFixed(2)
      .padStart(12)}`,
  );
}
db.close();
