/**
 * Two versions of the server side by side over HTTP (issue 41: "no class slower than when
 * the issue was filed"): `records serve` from another checkout of the project (an older
 * commit, say) and from this one, each on its own store of the same records, asked the same
 * distinct queries uncached (`--search-cache-mb 0`), one at a time, in turns.
 *
 * The queries are class-profile's draw (bench/class-draw.ts): up to PER_CLASS distinct
 * searches per class, and the facets request an app sends beside the first 20 of each. Each
 * round asks every query of both servers, which goes first alternating from one query to
 * the next; a query's time is its least over the rounds, so a busy machine's pauses fall
 * out. Totals (X-Total-Count) are compared query by query.
 *   npm run bench:versus -- OTHER_CHECKOUT OTHER_STORE STORE RECORDS SEED [PER_CLASS] [ROUNDS]
 * writes bench/results/http-versus-<time>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { drawClassQueries } from './class-draw';
import { singleClient } from './http-client';
import { gitCommit, load1, machine } from './machine';
import { repoRoot, startChild } from './processes';
import { facetsBeside } from './query-log';
import { summarize } from './stats';

const [otherRoot, otherStore, store, recordsArg, seedArg, perClassArg, roundsArg] = process.argv.slice(2);
if (!otherRoot || !otherStore || !store || !recordsArg || !seedArg) {
  throw new Error('usage: npm run bench:versus -- OTHER_CHECKOUT OTHER_STORE STORE RECORDS SEED [PER_CLASS] [ROUNDS]');
}
const perClass = Number(perClassArg ?? 100);
const rounds = Math.max(1, Number(roundsArg ?? 3));
/** Facets requests per class: the app asks them beside a search, and each costs several searches' time. */
const facetsPerClass = 20;

/** `records serve` from checkout `root` on `db`, uncached; an older checkout's first start reads its store's facets whole. */
const serve = (root: string, db: string) =>
  startChild(
    process.execPath,
    [resolve(root, 'bin/records.js'), 'serve', '--db', db, '--port', '{port}', '--search-cache-mb', '0'],
    '/api/lit/v1/records?rows=1',
    {},
    undefined,
    600,
  );

const other = await serve(otherRoot, otherStore);
const ours = await serve(repoRoot, store).catch(async (error: unknown) => {
  await other.stop();
  throw error;
});
const sides = { other: { url: other.url, client: singleClient() }, ours: { url: ours.url, client: singleClient() } };
const commits = { other: gitCommit(otherRoot), ours: gitCommit() };
const drawn = drawClassQueries(Number(recordsArg), Number(seedArg), perClass);
const classes = [
  ...drawn.map(({ trafficClass, paths }) => ({ id: trafficClass.id, paths })),
  ...drawn.map(({ trafficClass, paths }) => ({ id: `facets:${trafficClass.id}`, paths: paths.slice(0, facetsPerClass).map(facetsBeside) })),
];
const least = new Map(classes.map(({ id, paths }) => [id, { other: paths.map(() => Infinity), ours: paths.map(() => Infinity) }]));
const totals = { other: new Map<string, string>(), ours: new Map<string, string>() };
const loads = [load1()];
try {
  for (let round = 0; round < rounds; round++) {
    for (const { id, paths } of classes) {
      const times = least.get(id)!;
      for (const [q, path] of paths.entries()) {
        for (const side of (round + q) % 2 === 0 ? (['other', 'ours'] as const) : (['ours', 'other'] as const)) {
          const { client, url } = sides[side];
          const answer = await client.get(url + path);
          if (answer.status !== 200) throw new Error(`${side}: ${answer.status} for ${path}`);
          times[side][q] = Math.min(times[side][q]!, answer.ms);
          totals[side].set(path, String(answer.headers['x-total-count'] ?? ''));
        }
      }
    }
    loads.push(load1());
    console.log(`round ${round + 1} of ${rounds}`);
  }
} finally {
  for (const side of Object.values(sides)) side.client.close();
  await Promise.all([other.stop(), ours.stop()]);
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const rows = classes.map(({ id, paths }) => {
  const other = summarize(least.get(id)!.other);
  const ours = summarize(least.get(id)!.ours);
  return {
    class: id,
    queries: paths.length,
    other: [other.p50, other.p95],
    ours: [ours.p50, ours.p95],
    ratio: [round2(ours.p50 / other.p50), round2(ours.p95 / other.p95)],
  };
});
const differ = [...totals.ours]
  .filter(([path, total]) => totals.other.get(path) !== total)
  .map(([path, total]) => ({ path, other: totals.other.get(path), ours: total }));
for (const row of rows) {
  console.log(
    `${row.class.padEnd(22)} ${String(row.queries).padStart(4)}  other ${row.other.join(' / ')}  ours ${row.ours.join(' / ')}  ours/other ${row.ratio.join(' / ')}`,
  );
}
console.log(`totals differ on ${differ.length} of ${totals.ours.size}`);

const date = new Date().toISOString();
const result = {
  date,
  what: `records serve of ${commits.other.commit} against ${commits.ours.commit}, ${recordsArg} LIT records (seed ${seedArg}) in each's own store, uncached, one request at a time in turns, each query's least of ${rounds} rounds (ms, p50 / p95)`,
  machine: machine(),
  load1: loads,
  commits,
  classes: rows,
  totalsDiffer: differ,
};
const dir = resolve(repoRoot, 'bench/results');
mkdirSync(dir, { recursive: true });
writeFileSync(resolve(dir, `http-versus-${date.slice(0, 16).replace(/:/g, '-')}.json`), `${JSON.stringify(result, null, 2)}\n`);
process.exit(0);
