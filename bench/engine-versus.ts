/**
 * Two versions of the query engine side by side in one process and thread: another
 * checkout's (an older commit, say) and this one's, each opened on its store, asked the same
 * distinct queries (class-profile's draw, bench/class-draw.ts) for the first page's rank and
 * total, uncached. The two take turns query by query, which goes first alternating, and
 * each round opens both engines anew, as class-profile's passes do; a query's time is its
 * least over the rounds. On a shared machine, separate runs of class-profile differed by a
 * fifth from run to run, more than most changes to the engine; here both versions meet the
 * same moments of the machine. The other checkout needs its own `npm ci`.
 *   npm run bench:engine-versus -- OTHER_CHECKOUT OTHER_STORE STORE RECORDS SEED [PER_CLASS] [ROUNDS] [CLASS,...]
 * writes bench/results/engine-versus-<time>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deploymentByKey } from '../src/deployments/registry';
import * as ourCriteria from '../src/server/http/criteria';
import * as ourQueryString from '../src/server/http/query-string';
import * as ourEngine from '../src/server/store/sqlite/query-engine';
import { drawClassQueries } from './class-draw';
import { gitCommit, load1, machine } from './machine';
import { repoRoot } from './processes';
import { asServed } from './served-engine';
import { percentile } from './stats';

const [otherRoot, otherStore, store, recordsArg, seedArg, perClassArg, roundsArg, onlyArg] = process.argv.slice(2);
if (!otherRoot || !otherStore || !store || !recordsArg || !seedArg) {
  throw new Error('usage: npm run bench:engine-versus -- OTHER_CHECKOUT OTHER_STORE STORE RECORDS SEED [PER_CLASS] [ROUNDS] [CLASS,...]');
}
const perClass = Number(perClassArg ?? 100);
const rounds = Math.max(1, Number(roundsArg ?? 5));
const only = onlyArg?.split(',');
const page = 20;
const lit = deploymentByKey('LIT')!;

/** A checkout's engine and the request parsing its engine was written for. */
interface Version {
  openEngine: typeof ourEngine.openEngine;
  parseListRequest: typeof ourCriteria.parseListRequest;
  parseQueryString: typeof ourQueryString.parseQueryString;
}
const fromOther = async <T>(path: string): Promise<T> => (await import(pathToFileURL(resolve(otherRoot, path)).href)) as T;
const versions: Record<'other' | 'ours', Version> = {
  other: {
    ...(await fromOther<Pick<Version, 'openEngine'>>('src/server/store/sqlite/query-engine.ts')),
    ...(await fromOther<Pick<Version, 'parseListRequest'>>('src/server/http/criteria.ts')),
    ...(await fromOther<Pick<Version, 'parseQueryString'>>('src/server/http/query-string.ts')),
  },
  ours: { ...ourEngine, ...ourCriteria, ...ourQueryString },
};
const sides = ['other', 'ours'] as const;
const turns = [sides, ['ours', 'other'] as const];

const classes = drawClassQueries(Number(recordsArg), Number(seedArg), perClass)
  .filter(({ trafficClass }) => !only || only.includes(trafficClass.id))
  .map(({ trafficClass, paths }) => {
    const criteria = (side: 'other' | 'ours') =>
      paths.map((path) => {
        const { parseListRequest, parseQueryString } = versions[side];
        const { criteria } = parseListRequest(lit, parseQueryString(path.slice(path.indexOf('?') + 1)));
        return { ...criteria, offset: 0, limit: page };
      });
    return { id: trafficClass.id, paths, criteria: { other: criteria('other'), ours: criteria('ours') } };
  });
const least = new Map(classes.map(({ id, paths }) => [id, { other: paths.map(() => Infinity), ours: paths.map(() => Infinity) }]));
const totals = new Map(classes.map(({ id, paths }) => [id, { other: paths.map(() => -1), ours: paths.map(() => -1) }]));
const loads = [load1()];
for (let round = 0; round < rounds; round++) {
  const engines = { other: versions.other.openEngine(otherStore, asServed), ours: versions.ours.openEngine(store, asServed) };
  for (const engine of Object.values(engines)) engine.warmSearch();
  for (const { id, paths, criteria } of classes) {
    const times = least.get(id)!;
    const counted = totals.get(id)!;
    for (let q = 0; q < paths.length; q++) {
      for (const side of turns[(round + q) % 2]!) {
        const started = performance.now();
        const { total } = engines[side].rank('LIT', criteria[side][q]!, page);
        const ms = performance.now() - started;
        times[side][q] = Math.min(times[side][q]!, ms);
        counted[side][q] = total;
      }
    }
  }
  for (const engine of Object.values(engines)) engine.close();
  loads.push(load1());
  console.log(`round ${round + 1} of ${rounds}`);
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
const rows = classes.map(({ id, paths }) => {
  const [other, ours] = sides.map((side) => {
    const sorted = [...least.get(id)![side]].sort((a, b) => a - b);
    return [percentile(sorted, 50), percentile(sorted, 95)] as const;
  });
  return {
    class: id,
    queries: paths.length,
    other: other!.map(round3),
    ours: ours!.map(round3),
    ratio: [round3(ours![0] / other![0]), round3(ours![1] / other![1])],
  };
});
const differ = classes.flatMap(({ id, paths }) =>
  paths.flatMap((path, q) => {
    const { other, ours } = totals.get(id)!;
    return other[q] === ours[q] ? [] : [{ path, other: other[q], ours: ours[q] }];
  }),
);
for (const row of rows) {
  console.log(
    `${row.class.padEnd(14)} ${String(row.queries).padStart(4)}  other ${row.other.join(' / ')}  ours ${row.ours.join(' / ')}  ours/other ${row.ratio.join(' / ')}`,
  );
}
console.log(`totals differ on ${differ.length} of ${classes.reduce((sum, { paths }) => sum + paths.length, 0)}`);

const date = new Date().toISOString();
const commits = { other: gitCommit(otherRoot), ours: gitCommit() };
const result = {
  date,
  what: `the query engine of ${commits.other.commit} against ${commits.ours.commit} in one process, ${recordsArg} LIT records (seed ${seedArg}), the first ${page}'s rank and total, uncached, in turns, each query's least of ${rounds} rounds on engines opened for the round (ms, p50 / p95)`,
  machine: machine(),
  load1: loads,
  commits,
  stores: { other: otherStore, ours: store },
  classes: rows,
  totalsDiffer: differ,
};
const dir = resolve(repoRoot, 'bench/results');
mkdirSync(dir, { recursive: true });
writeFileSync(resolve(dir, `engine-versus-${date.slice(0, 16).replace(/:/g, '-')}.json`), `${JSON.stringify(result, null, 2)}\n`);
