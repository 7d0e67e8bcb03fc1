import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './processes';
import type { ImportResult } from './import-while-serving';
import type { PeerResult } from './fts5-peer';
import type { KnownItemsRun } from './known-items';
import type { UncachedResult } from './latency';
import { targets, type BenchResult, type ClassRow, type TrafficRun } from './results';
import type { TrafficResult } from './traffic';

/**
 * bench/README.md is generated from the results files: the latest run in full, and a
 * before/after comparison of the newest `baseline` run with the newest other run.
 * Prose that is not a measurement lives in bench/notes.md and is copied in.
 */

const resultsDir = resolve(repoRoot, 'bench/results');

export function loadResults(): BenchResult[] {
  if (!existsSync(resultsDir)) return [];
  return (
    readdirSync(resultsDir)
      // bench:postgres writes its own shape of results beside these.
      .filter((name) => name.endsWith('.json') && !name.endsWith('-postgres.json'))
      .sort()
      .map((name) => JSON.parse(readFileSync(resolve(resultsDir, name), 'utf8')) as BenchResult)
      // The same folder holds the other benchmarks' results (PostgreSQL, attack), of other shapes.
      .filter((result) => result.corpus !== undefined && result.floor !== undefined)
      .map(withoutCache)
  );
}

/** A run of a server without a search cache: its repeated requests are its uncached figures. */
function withoutCache(r: BenchResult): BenchResult {
  if (r.searchCache !== false) return r;
  return { ...r, classes: r.classes.map((c) => (c.uncached ? c : { ...c, uncached: c })) };
}

// NaN is written to JSON as null: a class that timed nothing reads back with null figures.
const ms = (value: number | null | undefined) =>
  value === undefined || value === null || Number.isNaN(value) ? '–' : value >= 100 ? value.toFixed(0) : value.toFixed(1);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
// A figure a run could not know (NaN, written to JSON as null) is a dash.
const n = (value: number | null | undefined) =>
  value === undefined || value === null || Number.isNaN(value) ? '–' : value.toLocaleString('en');
const pct = (share: number | undefined) => (share === undefined ? '–' : `${Math.round(share * 100)}%`);
const mark = (ok: boolean) => (ok ? 'yes' : '**no**');

/** Marks a figure that stands in for an uncached measurement the run did not make. */
const firstOnly = '¹';
const firstOnlyNote = `${firstOnly} First request only (one sample): this run predates the uncached measurement (results version 1), so its first request, made before anything was cached, stands for it.`;

/**
 * A class's uncached figures. Version-1 runs measured only the normal server; their first
 * request is the one uncached figure they have, so it stands in (and is footnoted).
 */
function uncachedOf(c: ClassRow): UncachedResult & { readonly fromFirst: boolean } {
  if (c.uncached) return { ...c.uncached, fromFirst: false };
  const { firstMs } = c;
  return {
    firstMs,
    n: 1,
    p50: firstMs,
    p95: firstMs,
    p99: firstMs,
    mean: firstMs,
    max: firstMs,
    errors: 0,
    backgroundBusy: c.backgroundBusy,
    fromFirst: true,
  };
}

/** The p95 target is judged on uncached requests; an error in either kind fails it too. */
const meetsP95 = (c: ClassRow) => {
  const u = uncachedOf(c);
  return u.p95 <= (c.p95Ms ?? targets.p95Ms) && u.errors === 0 && c.errors === 0;
};

/** The class with the highest p95 of the given kind. */
function slowest(r: BenchResult, p95: (c: ClassRow) => number): { label: string; p95: number } {
  const worst = r.classes.reduce((a, b) => (p95(b) > p95(a) ? b : a));
  return { label: worst.label, p95: p95(worst) };
}

function machineTable(r: BenchResult): string {
  const m = r.machine;
  return [
    '| | |',
    '|---|---|',
    `| date | ${r.date} |`,
    `| command | \`${r.command}\` |`,
    `| machine | ${m.cpu}, ${m.cores} cores, ${(m.memoryBytes / 2 ** 30).toFixed(0)} GiB RAM, Linux ${m.kernel} |`,
    `| software | Node ${m.node}, SQLite ${m.sqlite} (better-sqlite3 ${m.betterSqlite3}) |`,
    `| load average (1 min) at start / end | ${r.load1.start} / ${r.load1.end} |`,
    `| code | ${r.git.commit}${r.git.dirty.length ? ` + uncommitted changes to ${r.git.dirty.join(', ')}` : ''} |`,
    `| corpus | ${n(r.corpus.records)} LIT records, seed ${r.corpus.seed}, fingerprint ${r.corpus.fingerprint} |`,
    `| run took | ${(r.durationSeconds / 60).toFixed(1)} min |`,
  ].join('\n');
}

function classTable(r: BenchResult): string {
  const rows = r.classes.map((c) => {
    const u = uncachedOf(c);
    return `| ${c.label} | ${n(c.total)} | ${ms(u.p50)} | ${ms(u.p95)} | ${ms(u.p99)} | ${u.n}${u.fromFirst ? firstOnly : ''} | ${ms(c.p50)} | ${ms(c.p95)} | ${c.p50Ratio.toFixed(1)}× | ${pct(u.backgroundBusy)} | ${mark(meetsP95(c))} |`;
  });
  const lines = [
    `One client, keep-alive, sequential. Latency in ms from request to last byte. **Uncached**: a second server, started with \`--search-cache-mb 0\`, keeps no search orders, so it computes every request from the database (whose pages stay in the OS cache, as for any running server); the p95 target is judged on these. **Repeated**: the same request sent again and again to the normal server, which answers it from its cache after the first time. Each is over ${r.config.samples} requests after ${r.config.warmup} warm-up ones (fewer when a class hits the ${r.config.classSeconds} s cap: see n).`,
    '',
    `"× floor" is the repeated p50 divided by the p50 of a prebuilt ${n(r.floor.bytes)}-byte page served from memory (${ms(r.floor.p50)} ms; p95 ${ms(r.floor.p95)}, p99 ${ms(r.floor.p99)} over ${n(r.floor.n)}). "other load" is the share of the cores that other processes kept busy just before the uncached class ran (the run waits up to ${r.config.quietSeconds ?? 0} s for it to fall below 25%).`,
    '',
    `| query class | X-Total-Count | uncached p50 | uncached p95 | uncached p99 | n | repeated p50 | repeated p95 | × floor | other load | uncached p95 within target (${targets.p95Ms} ms${r.classes.flatMap((c) => (c.p95Ms ? [`; ${c.id} ${c.p95Ms} ms`] : [])).join('')}) |`,
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|:-:|',
    ...rows,
  ];
  if (r.classes.some((c) => !c.uncached)) lines.push('', firstOnlyNote);
  return lines.join('\n');
}

/** The writes that followed the first, as a row: median and slowest, against issue 29's 25 s. */
function laterWrites({ records, laterWriteSeconds: seconds }: ImportResult): string[] {
  if (!seconds?.length) return [];
  const sorted = [...seconds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const slowest = sorted[sorted.length - 1]!;
  return [
    `| the ${seconds.length} writes of ${n(records)} that followed, one after another: median / slowest | ${median.toFixed(1)} / ${slowest.toFixed(1)} s | ≤ 25 s | ${mark(slowest <= 25)} |`,
  ];
}

function summaryTable(r: BenchResult): string {
  const mix = r.mix;
  const met = r.classes.filter(meetsP95).length;
  const slowUncached = slowest(r, (c) => uncachedOf(c).p95);
  const slowRepeated = slowest(r, (c) => c.p95);
  const firstOnlyRun = r.classes.some((c) => !c.uncached);
  const lines = [
    '| measure | value | target | met |',
    '|---|--:|--:|:-:|',
    `| ingest (generate + write ${n(r.corpus.records)} records) | ${(r.corpus.ingestSeconds / 60).toFixed(1)} min | | |`,
    `| database size | ${mb(r.corpus.bytes)} | | |`,
    ...(r.importWhileServing
      ? [
          `| import ${n(r.importWhileServing.records)} records into the ${n(r.importWhileServing.storeRecords)}-record store (\`records generate\`, in place) | ${r.importWhileServing.importSeconds.toFixed(1)} s | seconds | |`,
          `| … until a running \`records serve\` finds them (from the import's start; answers while waiting: ${r.importWhileServing.polls}, wrong: ${r.importWhileServing.badAnswers}) | ${r.importWhileServing.foundSeconds.toFixed(1)} s | | ${mark(r.importWhileServing.badAnswers === 0 && Number.isFinite(r.importWhileServing.foundSeconds))} |`,
          ...laterWrites(r.importWhileServing),
        ]
      : []),
    `| mix at concurrency ${mix.concurrency}: throughput | ${n(Math.round(mix.rps))} req/s | ≥ ${n(targets.mixRps)} | ${mark(mix.rps >= targets.mixRps)} |`,
    `| mix: latency p50 / p99 / max | ${mix.latencyMs.p50} / ${mix.latencyMs.p99} / ${mix.latencyMs.max} ms (other load before: ${pct(mix.backgroundBusy)}) | | |`,
    `| mix: errors (timeouts included) / of which timeouts / non-2xx | ${mix.errors} / ${mix.timeouts} / ${mix.non2xx} (of ${n(mix.requests)}) | 0 | ${mark(mix.errors + mix.non2xx === 0)} |`,
    `| server memory (RSS): idle / after the classes / mean under load / peak | ${mb(r.memory.idleBytes)} / ${mb(r.memory.afterClassesBytes)} / ${mb(mix.memory.meanBytes)} / ${mb(r.memory.peakBytes)} | | |`,
    `| query classes within their uncached p95 target | ${met} of ${r.classes.length} (slowest: ${slowUncached.label}, ${ms(slowUncached.p95)} ms${firstOnlyRun ? `, first requests only${firstOnly}` : ''}) | all | ${mark(met === r.classes.length)} |`,
    `| query classes, repeated: slowest p95 | ${ms(slowRepeated.p95)} ms (${slowRepeated.label}) | | |`,
    `| single-record p95 alone / while heavy queries run | ${ms(r.isolation.recordsAlone.p95)} / ${ms(r.isolation.recordsDuring.p95)} ms (heavy query p50 ${ms(r.isolation.heavy.p50)} ms) | ≤ ${targets.p95Ms} while heavy | ${mark(r.isolation.recordsDuring.p95 <= targets.p95Ms)} |`,
  ];
  if (r.app) {
    lines.push(
      `| app: initial JavaScript, gzip | ${kb(r.app.size.gzipBytes)} (${r.app.size.files.length} files) | ≤ ${kb(targets.initialJsGzipBytes)} | ${mark(r.app.size.gzipBytes <= targets.initialJsGzipBytes)} |`,
    );
    const f = r.app.firstResults;
    lines.push(
      f
        ? `| app: navigation to first rendered results (\`${f.url}\`), median of ${f.n} | ${ms(f.p50)} ms (range ${ms(Math.min(f.p50, f.max))}–${ms(f.max)}) | | |`
        : `| app: navigation to first rendered results | not measured: ${r.app.error ?? 'unknown'} | | |`,
    );
  }
  return lines.join('\n');
}

function comparison(before: BenchResult, after: BenchResult): string {
  const byId = new Map(before.classes.map((c) => [c.id, c]));
  const uncachedMs = (c: ClassRow | undefined, pick: (u: UncachedResult) => number) => {
    const u = c && uncachedOf(c);
    return u ? `${ms(pick(u))}${u.fromFirst ? firstOnly : ''}` : '–';
  };
  const rows = after.classes.map((c) => {
    const b = byId.get(c.id);
    const same = b && b.total === c.total ? '' : ` (before: ${n(b?.total)})`;
    return `| ${c.label} | ${n(c.total)}${same} | ${uncachedMs(b, (u) => u.p50)} → ${uncachedMs(c, (u) => u.p50)} | ${uncachedMs(b, (u) => u.p95)} → **${uncachedMs(c, (u) => u.p95)}** | ${ms(b?.p50)} → ${ms(c.p50)} | ${ms(b?.p95)} → ${ms(c.p95)} |`;
  });
  const slowestUncached = (r: BenchResult) => {
    const worst = slowest(r, (c) => uncachedOf(c).p95);
    return `${ms(worst.p95)} ms${r.classes.some((c) => !c.uncached) ? firstOnly : ''}`;
  };
  const lines = [
    `Before: ${before.date} (${before.git.commit}${before.label ? `, ${before.label}` : ''}); after: ${after.date} (${after.git.commit}${after.label ? `, ${after.label}` : ''}). ${before.corpus.fingerprint === after.corpus.fingerprint ? 'Same database file.' : `Databases built separately (fingerprints ${before.corpus.fingerprint} → ${after.corpus.fingerprint}: the store's writing code, and with it the ingest, changed; so may have the generator, hence totals that differ slightly).`}`,
    '',
    '| query class | X-Total-Count | uncached p50 ms | uncached p95 ms | repeated p50 ms | repeated p95 ms |',
    '|---|--:|--:|--:|--:|--:|',
    ...rows,
    ...([before, after].some((r) => r.classes.some((c) => !c.uncached)) ? ['', firstOnlyNote] : []),
    '',
    '| measure | before | after |',
    '|---|--:|--:|',
    `| ingest | ${(before.corpus.ingestSeconds / 60).toFixed(1)} min | ${(after.corpus.ingestSeconds / 60).toFixed(1)} min |`,
    `| database size | ${mb(before.corpus.bytes)} | ${mb(after.corpus.bytes)} |`,
    `| slowest query class, uncached p95 | ${slowestUncached(before)} | ${slowestUncached(after)} |`,
    `| slowest query class, repeated p95 | ${ms(slowest(before, (c) => c.p95).p95)} ms | ${ms(slowest(after, (c) => c.p95).p95)} ms |`,
    `| mix throughput (c=${after.mix.concurrency}) | ${n(Math.round(before.mix.rps))} req/s | ${n(Math.round(after.mix.rps))} req/s |`,
    `| mix p99 | ${before.mix.latencyMs.p99} ms | ${after.mix.latencyMs.p99} ms |`,
    `| mix errors (timeouts included) + non-2xx | ${before.mix.errors + before.mix.non2xx} (${before.mix.timeouts} timeouts) | ${after.mix.errors + after.mix.non2xx} (${after.mix.timeouts} timeouts) |`,
    `| server peak RSS | ${mb(before.memory.peakBytes)} | ${mb(after.memory.peakBytes)} |`,
    `| single-record p95 while heavy queries run | ${ms(before.isolation.recordsDuring.p95)} ms | ${ms(after.isolation.recordsDuring.p95)} ms |`,
  ];
  if (before.app && after.app) {
    lines.push(`| app initial JS (gzip) | ${kb(before.app.size.gzipBytes)} | ${kb(after.app.size.gzipBytes)} |`);
    lines.push(`| app time to first results (median) | ${ms(before.app.firstResults?.p50)} ms | ${ms(after.app.firstResults?.p50)} ms |`);
  }
  return lines.join('\n');
}

/** The newest run with real-traffic figures: a full run (version 3) or a `BENCH_TRAFFIC_ONLY=1` one. */
function latestTraffic(): TrafficRun | undefined {
  if (!existsSync(resultsDir)) return undefined;
  for (const name of readdirSync(resultsDir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .reverse()) {
    const result = JSON.parse(readFileSync(resolve(resultsDir, name), 'utf8')) as Partial<TrafficRun>;
    if (result.traffic && result.corpus) return result as TrafficRun;
  }
  return undefined;
}

function trafficSection(r: TrafficRun): string {
  const t = r.traffic;
  const through = (label: string, x: TrafficResult['mix'] | TrafficResult['floor'], ofFloor?: number) =>
    `| ${label} | ${n(Math.round(x.rps))} req/s${x.searchesPerSecond !== x.rps ? ` (${n(Math.round(x.searchesPerSecond))} searches/s)` : ''} | ${ofFloor === undefined ? '' : pct(ofFloor)} | ${x.latencyMs.p50} / ${x.latencyMs.p99} ms | ${x.errors + x.non2xx}${x.repeated ? `; ${n(x.repeated)} repeated` : ''} |`;
  return [
    `${r.date}, \`${r.command}\`, code ${r.git.commit}${r.git.dirty.length ? ' + uncommitted changes' : ''}, ${n(r.corpus.records)} LIT records, ${r.machine.cores} cores, load average ${r.load1.start} / ${r.load1.end} at start / end.`,
    '',
    `Every query is sent once (${n(t.classes.reduce((sum, c) => sum + c.n, 0) + t.mix.requests + Math.ceil(t.mixWithFacets.requests / 2))} distinct queries in the run), drawn from a query log of this corpus (\`bench/query-log.ts\`: words by their document frequency in ${n(t.sampledRecords)} sampled records, phrases from the titles, the records' authors, dates, facet values), to a server started with \`--search-cache-mb 0\`, after ${r.config.warmup} warm-up queries of each class with queries to spare and as many single words no class draws (never timed, never sent again), so the server's code is compiled as a running server's is. One client, sequential, per class; "median total" is the median X-Total-Count of the class's queries, so the class's breadth is what this corpus has.`,
    '',
    '| class (distinct queries) | n | median total | p50 ms | p95 ms | p99 ms | errors |',
    '|---|--:|--:|--:|--:|--:|--:|',
    ...t.classes.map(
      (c) =>
        `| ${c.label}${c.exhausted ? ' (every one there is)' : ''} | ${c.n} | ${n(c.medianTotal)} | ${ms(c.p50)} | ${ms(c.p95)} | ${ms(c.p99)} | ${c.errors} |`,
    ),
    ...(t.firstSuggestMs === undefined
      ? []
      : [
          '',
          `"Did you mean" is timed once every worker of the pool has built its vocabulary of the deployment's words, which each does on its first request (\`src/server/suggest/vocabulary.ts\`): rounds of concurrent requests, twice as many as the workers, until every answer of a round takes under a second. The slowest answer of the first round, what the first person to make a slip after a start waits: ${n(t.firstSuggestMs)} ms.`,
        ]),
    '',
    `Throughput at concurrency ${t.mix.concurrency} for ${t.mix.seconds} s each (autocannon), distinct searches of every class in turn; "with facets" sends each search's \`/facets\` request beside it, as the app does. The floor is node:http answering a prebuilt 20-record page from memory, in the same run.`,
    '',
    '| load | throughput | of the floor | p50 / p99 | errors |',
    '|---|--:|--:|--:|--:|',
    through('floor (prebuilt page)', t.floor),
    through('distinct searches', t.mix, t.mix.ofFloor),
    through('distinct searches, each with its facets request', t.mixWithFacets, t.mixWithFacets.ofFloor),
  ].join('\n');
}

function peerSection(r: TrafficRun, p: PeerResult): string {
  const ratio = (peer: number, ours: number) => (ours > 0 ? `${(peer / ours).toFixed(1)}×` : '–');
  const share = (part: number, whole: number) => `${(part / whole).toFixed(1)}×`;
  return [
    `${p.peer}, tokenizer \`${p.tokenizer}\` (the one our postings are built with), in the run above (${r.date}, ${n(p.records)} LIT records): FTS5 is asked every distinct search each class sent over HTTP, compiled to one FTS5 query as the engine's tests compile them (\`src/server/store/predicate.test-support.ts\`; dates and year words from the store's date column, joined), for its total (\`count(*)\`) and its first 20 records by \`bm25()\` with their bodies; our engine is asked the same in the same process and thread (rank + fetch of the same page, no cache). The facets classes and "Did you mean" are not FTS5's to answer and are left out. **tantivy is not in this comparison**: its npm binding (\`@oxdev03/node-tantivy-binding\`) is not in the npm registry this machine reaches (\`npm view\` answers 404) and crates.io is unreachable, so it could not be installed or built here.`,
    '',
    '| measure | ours | FTS5 | ours ÷ FTS5 |',
    '|---|--:|--:|--:|',
    `| text index size | ${p.oursTextIndexBytes === undefined ? '–' : mb(p.oursTextIndexBytes)} (postings, positions, pair lists, lengths); the whole store ${mb(p.oursStoreBytes)} | ${mb(p.indexBytes)} (contentless: the index and document sizes) | ${p.oursTextIndexBytes === undefined ? '–' : share(p.oursTextIndexBytes, p.indexBytes)} |`,
    `| build | ${r.corpus.cpuSeconds === undefined ? 'CPU not recorded' : `${r.corpus.cpuSeconds} s CPU`}, ${ms(r.corpus.ingestSeconds)} s wall: the ingest (records, keys and every index; its postings are read from an FTS5 build of the same text, so FTS5's build is part of ours) | ${p.buildCpuSeconds} s CPU, ${p.buildSeconds} s wall (text index only, merged into one segment) | ${r.corpus.cpuSeconds === undefined ? '' : share(r.corpus.cpuSeconds, p.buildCpuSeconds)} |`,
    `| totals agreeing | | ${n(p.agreement.same)} of ${n(p.agreement.of)} searches | |`,
    '',
    '| class | n | ours p50 / p95 ms | FTS5 p50 / p95 ms | FTS5 ÷ ours p50 / p95 | same total |',
    '|---|--:|--:|--:|--:|--:|',
    ...p.classes.map(
      (c) =>
        `| ${c.label} | ${c.n} | ${ms(c.ours.p50)} / ${ms(c.ours.p95)} | ${ms(c.fts5.p50)} / ${ms(c.fts5.p95)} | ${ratio(c.fts5.p50, c.ours.p50)} / ${ratio(c.fts5.p95, c.ours.p95)} | ${c.sameTotal} |`,
    ),
    ...(p.agreement.examples.length
      ? ['', `Totals that differ (first ${p.agreement.examples.length}): ${p.agreement.examples.map((e) => `\`${e}\``).join('; ')}.`]
      : []),
  ].join('\n');
}

/** The newest run with known-item figures: `npm run bench:known-items`, or a full run. */
function latestKnownItems(): KnownItemsRun | undefined {
  if (!existsSync(resultsDir)) return undefined;
  for (const name of readdirSync(resultsDir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .reverse()) {
    const result = JSON.parse(readFileSync(resolve(resultsDir, name), 'utf8')) as Partial<KnownItemsRun>;
    if (result.knownItems && result.date) return result as KnownItemsRun;
  }
  return undefined;
}

function knownItemsSection(r: KnownItemsRun): string {
  const k = r.knownItems;
  const share = (value: number) => `${(value * 100).toFixed(1)}%`;
  const rows = k.stores.flatMap((store) =>
    store.forms.map((form) => {
      const target = form.target
        ? `${form.target.measure === 'first' ? 'first' : 'first page'} ≥ ${Math.round(form.target.share * 100)}%: ${mark(form.target.met)}`
        : '';
      return `| ${store.store} | ${form.label} | ${form.n} | ${share(form.first)} | ${share(form.firstPage)} | ${form.mrr.toFixed(3)} | ${form.viaSuggestion || ''} | ${target} |`;
    }),
  );
  return [
    `${r.date}, \`${r.command}\`, code ${r.git.commit}${r.git.dirty.length ? ' + uncommitted changes' : ''}, load average ${r.load1.start} / ${r.load1.end} at start / end.`,
    '',
    `The real records shipped in \`data/real\` (${Object.entries(k.realRecords)
      .map(([key, count]) => `${n(count)} ${key}, ${n(k.works[key])} works`)
      .join(
        '; ',
      )}; records of one DOI, or of one folded title, first author and year, are one work) mixed into ${n(k.generatedPerDeployment)} generated records of each deployment. For every work, what a person who remembers it types (\`src/server/corpus/known-items.ts\`, seed ${k.seed}, drawn from the work's own title, first author and year): three of its title words; the first author's surname, a title word and the year; the whole title; three title words, one with a typing slip (two letters swapped, one left out, doubled or a neighbouring key); three title words, one in the other number. Sent over HTTP as the app sends them; "first page" is the app's ${k.rows} rows, the mean reciprocal rank counts the first 100 results. A search that finds nothing is followed as the app follows it: the suggestion's results (\`{base}/suggest\`), counted under "via suggestion". PostgreSQL is served from its local index, as \`records serve --store postgres://…\` serves it.`,
    '',
    '| store | form | n | first | first page | MRR | via suggestion | target (issue 39) |',
    '|---|---|--:|--:|--:|--:|--:|---|',
    ...rows,
  ].join('\n');
}

export function writeReadme(): void {
  const all = loadResults();
  // The newest plain `npm run bench` (no label) is "the latest run" and "after"; labelled
  // runs are the baseline and side measurements.
  const newest = [...all].reverse();
  const latest = newest.find((r) => !r.label) ?? all.at(-1);
  const baseline = newest.find((r) => r.label === 'baseline');
  const after = newest.find((r) => !r.label && r.config.records === baseline?.config.records);
  const notesPath = resolve(repoRoot, 'bench/notes.md');
  const notes = existsSync(notesPath) ? readFileSync(notesPath, 'utf8').trim() : '';
  const parts = [
    '# Benchmark',
    '',
    '<!-- Generated by `npm run bench` (bench/report.ts) from bench/results/*.json and bench/notes.md; edit those, not this file. -->',
    '',
    "What `npm run bench` measures, over HTTP against `records serve` (the worker-thread pool) on a generated LIT database: first, real traffic on a server started with `--search-cache-mb 0` (distinct queries per class from a query log of the corpus, never one sent twice; a mix of distinct searches at concurrency 32 with and without the facets request per search; the floor, node:http serving a prebuilt page, in the same run); then ingest, database size, per-class latency of fixed queries with one client (uncached, and repeated on the normal server, where they are cached), the older fixed mix, server memory, whether a slow query holds up other requests, the app's initial JavaScript and the time to first rendered results in Chromium. Results: `bench/results/<date>[-label].json`.",
    '',
    '```sh',
    'npm run bench                                   # full run: 1,000,000 records (~8 min; ~15 when the database must be built first)',
    'BENCH_RECORDS=100000 npm run bench              # quick run',
    'BENCH_LABEL=baseline npm run bench              # a run that the before/after table treats as "before"',
    'BENCH_RECORDS=20000 BENCH_TRAFFIC_ONLY=1 npm run bench   # real traffic only (results <date>-traffic.json)',
    'npm run bench:known-items                       # known items alone, on both stores (results <date>-known-items.json)',
    '```',
    '',
    "Settings (environment): `BENCH_RECORDS` (1000000), `BENCH_SEED` (1), `BENCH_SAMPLES` (200 per class, uncached and repeated each), `BENCH_WARMUP` (10), `BENCH_CLASS_SECONDS` (30, cap per class and kind), `BENCH_MIX_SECONDS` (20), `BENCH_CONCURRENCY` (32), `BENCH_TIMEOUT_SECONDS` (10, per request under load), `BENCH_TTFR_RUNS` (5), `BENCH_QUIET_SECONDS` (60, longest wait for other processes to leave the cores idle before each measurement), `BENCH_SKIP_APP=1`, `BENCH_LABEL`, `BENCH_DB` (measure an existing database instead), `BENCH_TRAFFIC_ONLY=1` (only the real-traffic part), `BENCH_PORTS=first-last` (keep the servers' ports in a range, on a shared machine), `BENCH_KNOWN_ITEMS_GENERATED` (10000 generated records per deployment beside the real ones), `BENCH_SKIP_KNOWN_ITEMS=1`, `BENCH_PEER_SECONDS` (10, the most FTS5's searches of one class may take before the class stops), `BENCH_SKIP_PEERS=1`. The database is built in `bench/tmp/` (gitignored) and reused while the generator's output, the seed, the count and the store's writing code are unchanged (`bench/corpus.ts`).",
    '',
  ];
  const traffic = latestTraffic();
  if (traffic) parts.push('## Real traffic (distinct queries, nothing cached)', '', trafficSection(traffic), '');
  if (traffic?.peer) parts.push('### A peer in the same run: SQLite FTS5', '', peerSection(traffic, traffic.peer), '');
  const knownItems = latestKnownItems();
  if (knownItems) parts.push('## Known items: finding a work the way a person remembers it', '', knownItemsSection(knownItems), '');
  if (latest) {
    parts.push(
      `## Latest run${latest.label ? ` (${latest.label})` : ''}`,
      '',
      machineTable(latest),
      '',
      summaryTable(latest),
      '',
      classTable(latest),
      '',
    );
  }
  if (baseline && after) {
    parts.push('## Before and after', '', comparison(baseline, after), '');
    // The same database file measured with the new code: equal totals and first records show the results did not change.
    const sameDb = newest.find((r) => r.label !== 'baseline' && r !== after && r.corpus.fingerprint === baseline.corpus.fingerprint);
    if (sameDb && after.corpus.fingerprint !== baseline.corpus.fingerprint) {
      const identical = sameDb.classes.every((c) => {
        const b = baseline.classes.find((x) => x.id === c.id);
        return b && b.total === c.total && JSON.stringify(b.firstIds) === JSON.stringify(c.firstIds);
      });
      parts.push(
        '### The baseline database with the new code',
        '',
        `The run above measures a database built by the new writer (and the generator of its day). This one measures the baseline's own database file with the new code: ${identical ? 'every class returns the same X-Total-Count and the same first five records as before' : '**some classes differ from the baseline** (see the results files)'}.`,
        '',
        comparison(baseline, sameDb),
        '',
      );
    }
  }
  if (notes) parts.push(notes, '');
  writeFileSync(resolve(repoRoot, 'bench/README.md'), parts.join('\n'));
}

// `npx tsx bench/report.ts` regenerates the README without a run (after removing or editing results files).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) writeReadme();
