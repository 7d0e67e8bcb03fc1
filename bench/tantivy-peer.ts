/**
 * tantivy 0.25 as a native peer of the engine (issue 41), built from bench/peers/tantivy/:
 * the store's records and class-profile's queries written for it as JSONL, its index built,
 * and the two sides timed interleaved on the same queries.
 *   npm run bench:tantivy -- export STORE RECORDS SEED OUT_DIR [PER_CLASS]
 *     OUT_DIR/records.jsonl (each record's text as the postings were built from it, its id
 *     and publication date) and OUT_DIR/queries.jsonl (class-profile's draw, one line each)
 *   npm run bench:tantivy -- build TB INDEX_DIR RECORDS_JSONL
 *     tb's index, and its build's CPU in INDEX_DIR/peer-build.json
 *   npm run bench:tantivy -- compare STORE RECORDS SEED TB INDEX_DIR QUERIES_JSONL [ROUNDS] [PASSES] [PER_CLASS]
 *     ROUNDS rounds of ours (bench/class-profile.ts, as a child) then tantivy's (tb query),
 *     totals compared query by query, written to bench/results/tantivy-peer-<time>.json
 */
import Database from 'better-sqlite3';
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
import { join, resolve } from 'node:path';
import { deploymentByKey } from '../src/deployments/registry';
import { searchColumns, type SearchColumn } from '../src/deployments/schema';
import { orderedField } from '../src/deployments/search-model';
import { parseListRequest } from '../src/server/http/criteria';
import { parseQueryString } from '../src/server/http/query-string';
import type { QueryNode } from '../src/server/query/ast';
import { openEngine } from '../src/server/store/sqlite/query-engine';
import { tablesOf } from '../src/server/store/sqlite/schema';
import { storedTexts } from '../src/server/store/sqlite/stored-text';
import type { Criteria } from '../src/server/store/types';
import { drawClassQueries } from './class-draw';
import { percentile } from './stats';

const lit = deploymentByKey('LIT')!;
const page = 20;

/** A date as tb keeps it: the digits of its ISO text, right-padded to 14 (so its order is the text's). */
const dateNumber = (iso: string) => Number(iso.replace(/\D/g, '').padEnd(14, '0').slice(0, 14));

const quoted = (text: string) => `"${text.replace(/["\\]/g, '\\$&')}"`;

/**
 * A query node in tantivy's QueryParser syntax, over the default fields (all columns) or the
 * one column given: words and phrases quoted (so the field's analyzer stems them as ours
 * does), AND as required clauses, NOT as excluded ones, OR between groups.
 */
function parserText(node: QueryNode, column: SearchColumn | undefined): string {
  const field = column ? `${column}:` : '';
  switch (node.type) {
    case 'term':
      if (node.prefix) throw new Error('a prefix is only asked alone');
      return field + quoted(node.text);
    case 'phrase':
      return field + quoted(node.text);
    case 'and':
      return node.children
        .map((child) => (child.type === 'not' ? `-(${parserText(child.child, column)})` : `+(${parserText(child, column)})`))
        .join(' ');
    case 'or':
      return node.children.map((child) => `(${parserText(child, column)})`).join(' OR ');
    case 'not':
      throw new Error('a NOT is only asked beside another clause');
  }
}

/** One of class-profile's queries as a line of tb's queries file. */
function tbQuery(id: string, criteria: Criteria) {
  if (criteria.exact.length > 0 || (criteria.selections?.length ?? 0) > 0 || (criteria.repoIds?.length ?? 0) > 0)
    throw new Error(`${id}: tb asks text and dates only`);
  let prefix: string | null = null;
  const parts: string[] = [];
  for (const { columns, query } of criteria.text) {
    const column = columns.length === searchColumns.length ? undefined : columns[0];
    if (columns.length !== searchColumns.length && columns.length !== 1) throw new Error(`${id}: columns ${columns.join(',')}`);
    if (query.type === 'term' && query.prefix) {
      if (prefix !== null || column) throw new Error(`${id}: one prefix over every column`);
      prefix = query.text;
    } else parts.push(parserText(query, column));
  }
  const dates = criteria.dates.filter((d) => d.field === 'publication_date');
  if (dates.length !== criteria.dates.length || dates.length > 1) throw new Error(`${id}: dates other than one publication_date range`);
  const [range] = dates;
  return {
    class: id,
    query: parts.length === 0 ? null : parts.length === 1 ? parts[0]! : parts.map((p) => `+(${p})`).join(' '),
    prefix,
    from: range?.from ? dateNumber(range.from) : null,
    to: range?.to ? dateNumber(range.to) : null,
  };
}

function drawn(records: number, seed: number, perClass: number) {
  return drawClassQueries(records, seed, perClass).flatMap(({ trafficClass, paths }) =>
    paths.map((p) => ({ id: trafficClass.id, criteria: parseListRequest(lit, parseQueryString(p.slice(p.indexOf('?') + 1))).criteria })),
  );
}

async function exportJsonl(store: string, records: number, seed: number, outDir: string, perClass: number): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const db = new Database(store, { readonly: true, fileMustExist: true });
  const dateColumn = orderedField(lit, 'publication_date')!.column;
  const dateOf = db.prepare<[number], string | null>(`SELECT ${dateColumn} FROM ${tablesOf(lit).records} WHERE id = ?`).pluck();
  const out = createWriteStream(join(outDir, 'records.jsonl'));
  let written = 0;
  for (const [id, text] of storedTexts(db, lit)) {
    const date = dateOf.get(id);
    if (!out.write(`${JSON.stringify({ id, date: date ? dateNumber(date) : null, ...text })}\n`))
      await new Promise<void>((done) => out.once('drain', () => done()));
    written++;
  }
  await new Promise<void>((done) => out.end(() => done()));
  db.close();
  const queries = drawn(records, seed, perClass).map(({ id, criteria }) => JSON.stringify(tbQuery(id, criteria)));
  writeFileSync(join(outDir, 'queries.jsonl'), `${queries.join('\n')}\n`);
  console.log(`${written} records, ${queries.length} queries in ${outDir}`);
}

function build(tb: string, indexDir: string, recordsJsonl: string): void {
  const started = performance.now();
  // bash's `time` reports the child's CPU, which node's spawnSync does not.
  const run = spawnSync('bash', ['-c', 'TIMEFORMAT="%U %S"; time "$0" build "$1" "$2"', tb, indexDir, recordsJsonl], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`tb build failed: ${run.stderr}`);
  const [user, system] = run.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  const result = {
    cpuSeconds: Math.round((user! + system!) * 10) / 10,
    wallSeconds: Math.round((performance.now() - started) / 100) / 10,
    log: run.stderr.trim().split('\n').slice(0, -1),
    sizes: indexSizes(indexDir),
  };
  writeFileSync(join(indexDir, 'peer-build.json'), `${JSON.stringify(result, null, 1)}\n`);
  console.log(JSON.stringify(result));
}

const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** tb's index files by kind; its text index is the term dictionaries, postings and positions. */
function indexSizes(indexDir: string) {
  const byKind = new Map<string, number>();
  for (const name of readdirSync(indexDir)) {
    const kind = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
    byKind.set(kind, (byKind.get(kind) ?? 0) + statSync(join(indexDir, name)).size);
  }
  const of = (kind: string) => mib(byKind.get(kind) ?? 0);
  return {
    textIndexMiB: Math.round((of('idx') + of('pos') + of('term')) * 10) / 10,
    byKindMiB: Object.fromEntries([...byKind].map(([kind, bytes]) => [kind, mib(bytes)])),
  };
}

/** Our text index (postings, positions, pairs, terms), as dbstat counts the tables' pages. */
function ourTextIndex(store: string) {
  const db = new Database(store, { readonly: true, fileMustExist: true });
  const t = tablesOf(lit);
  const parts = { postings: t.postings, positions: t.positions, pairs: t.pairs, terms: t.terms };
  const size = db.prepare<[string], number | null>('SELECT sum(pgsize) FROM dbstat WHERE name = ?').pluck();
  const sizes = Object.fromEntries(Object.entries(parts).map(([part, table]) => [part, mib(size.get(table) ?? 0)]));
  db.close();
  return { ...sizes, total: Math.round(Object.values(sizes).reduce((a, b) => a + b, 0) * 10) / 10 };
}

type Pair = [number, number];
const ourMeasures = ['rank', 'rankAndFetch', 'count', 'first20'] as const;
const tbMeasures = ['top10', 'count', 'both'] as const;

/** Our side: class-profile's own run, its table read back (rank, +fetch, count, top-20 per class). */
function oursRound(store: string, records: number, seed: number, perClass: number, passes: number): Map<string, Pair[]> {
  const out = execFileSync(
    'npx',
    ['tsx', 'bench/class-profile.ts', store, String(records), String(seed), String(perClass), String(passes)],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    },
  );
  const byClass = new Map<string, Pair[]>();
  // The table only: the slowest queries' lines follow it after a blank line.
  for (const line of out.split('\n\n')[0]!.split('\n').slice(1)) {
    const [id, , ...figures] = line.trim().split(/\s+/);
    if (!id || figures.length !== 8) continue;
    const numbers = figures.map(Number);
    byClass.set(
      id,
      ourMeasures.map((_, m) => [numbers[2 * m]!, numbers[2 * m + 1]!]),
    );
  }
  return byClass;
}

interface TbAnswer {
  readonly class: string;
  readonly total: number;
  readonly top10: number;
  readonly count: number;
  readonly both: number;
}

function tbRound(
  tb: string,
  indexDir: string,
  queries: string,
  passes: number,
  out: string,
): { byClass: Map<string, Pair[]>; answers: TbAnswer[] } {
  execFileSync(tb, ['query', indexDir, queries, String(passes), out], { stdio: ['ignore', 'ignore', 'inherit'] });
  const answers = readFileSync(out, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TbAnswer);
  const byClass = new Map<string, Pair[]>();
  for (const id of new Set(answers.map((a) => a.class))) {
    const mine = answers.filter((a) => a.class === id);
    const round3 = (v: number) => Math.round(v * 1000) / 1000;
    byClass.set(
      id,
      tbMeasures.map((m) => {
        const sorted = mine.map((a) => a[m]).sort((a, b) => a - b);
        return [round3(percentile(sorted, 50)), round3(percentile(sorted, 95))];
      }),
    );
  }
  return { byClass, answers };
}

/** Our totals for the same queries, against tb's, query by query. */
function agreement(store: string, records: number, seed: number, perClass: number, answers: readonly TbAnswer[]) {
  const engine = openEngine(store);
  engine.warmSearch();
  const asked = drawn(records, seed, perClass);
  if (asked.length !== answers.length) throw new Error(`${asked.length} queries drawn, tb answered ${answers.length}`);
  const differ: { class: string; ours: number; tantivy: number; query: string }[] = [];
  asked.forEach(({ id, criteria }, i) => {
    const ours = engine.rank('LIT', { ...criteria, offset: 0, limit: page }, page).total;
    if (ours !== answers[i]!.total)
      differ.push({ class: id, ours, tantivy: answers[i]!.total, query: JSON.stringify(tbQuery(id, criteria)) });
  });
  engine.close();
  return { same: asked.length - differ.length, of: asked.length, differ };
}

function compare(args: string[]): void {
  const [store, recordsArg, seedArg, tb, indexDir, queries, roundsArg, passesArg, perClassArg] = args;
  if (!store || !recordsArg || !seedArg || !tb || !indexDir || !queries) throw new Error('usage: see the head of bench/tantivy-peer.ts');
  const [records, seed] = [Number(recordsArg), Number(seedArg)];
  const rounds = Number(roundsArg ?? 3);
  const passes = Number(passesArg ?? 3);
  const perClass = Number(perClassArg ?? 100);
  const scratch = join(resolve(indexDir), '..', 'tb-answers.jsonl');
  const started = new Date();
  const loads: number[] = [];
  const ours = new Map<string, Pair[][]>();
  const theirs = new Map<string, Pair[][]>();
  const keep = (into: Map<string, Pair[][]>, round: Map<string, Pair[]>) => {
    for (const [id, pairs] of round) into.set(id, [...(into.get(id) ?? []), pairs]);
  };
  let answers: TbAnswer[] = [];
  for (let r = 0; r < rounds; r++) {
    loads.push(loadavg()[0]!);
    keep(ours, oursRound(store, records, seed, perClass, passes));
    loads.push(loadavg()[0]!);
    const round = tbRound(tb, indexDir, queries, passes, scratch);
    keep(theirs, round.byClass);
    answers = round.answers;
    console.log(`round ${r + 1} of ${rounds} done, load ${loadavg()[0]!.toFixed(1)}`);
  }
  const lowest = (rs: Pair[][], m: number): Pair => [Math.min(...rs.map((p) => p[m]![0])), Math.min(...rs.map((p) => p[m]![1]))];
  const classes = [...theirs.keys()].map((id) => {
    const o = ours.get(id) ?? [];
    const t = theirs.get(id)!;
    const measures = <M extends readonly string[]>(names: M, rs: Pair[][]) =>
      Object.fromEntries(names.map((name, m) => [name, rs.map((p) => p[m]!)]));
    return {
      class: id,
      queries: answers.filter((a) => a.class === id).length,
      // Each side's figure is its lowest round p50 and lowest round p95: ours rank (total + first 20), tantivy's both (count + top 10).
      ours: o.length ? lowest(o, 0) : null,
      tantivy: lowest(t, 2),
      oursRounds: measures(ourMeasures, o),
      tantivyRounds: measures(tbMeasures, t),
    };
  });
  const buildFile = join(indexDir, 'peer-build.json');
  let build: unknown;
  try {
    build = JSON.parse(readFileSync(buildFile, 'utf8'));
  } catch {
    build = indexSizes(indexDir);
  }
  const result = {
    date: `${started.toISOString()}/${new Date().toISOString()}`,
    what: `tantivy 0.25.0 (native release build, bench/peers/tantivy) against our engine in process: ${records} records (seed ${seed}), class-profile's ${answers.length} distinct queries (PER_CLASS ${perClass}), ${rounds} interleaved rounds (ours, tantivy), each query its least of ${passes} passes`,
    how: 'bench/peers/tantivy/README.md (build, schema, analyzer, how each query is written); ours: npx tsx bench/class-profile.ts STORE RECORDS SEED PER_CLASS PASSES, rank = total + first 20; tantivy: tb query, both = Count + TopDocs::with_limit(10); a class figure is the lowest round p50 and lowest round p95',
    machine: {
      cores: cpus().length,
      kernel: release(),
      node: process.version,
      rustc: spawnSync('rustc', ['--version'], { encoding: 'utf8' }).stdout.trim(),
      load1: loads.map((l) => Math.round(l * 10) / 10),
    },
    tantivy: { version: '0.25.0', features: ['mmap', 'stopwords', 'lz4-compression'], source: 'bench/peers/tantivy' },
    git: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
    textIndexMiB: { ours: ourTextIndex(store), tantivy: indexSizes(indexDir).textIndexMiB },
    tantivyBuild: build,
    classes,
    agreement: agreement(store, records, seed, perClass, answers),
  };
  const file = `bench/results/tantivy-peer-${started.toISOString().slice(0, 16).replace(':', '-')}.json`;
  writeFileSync(file, `${JSON.stringify(result, null, 1)}\n`);
  console.log(`class         ours p50/p95   tantivy p50/p95`);
  for (const c of classes)
    console.log(`${c.class.padEnd(12)} ${String(c.ours?.join(' / ')).padStart(14)}  ${c.tantivy.join(' / ').padStart(14)}`);
  console.log(`totals agree on ${result.agreement.same} of ${result.agreement.of}; written to ${file}`);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'export') {
  const [store, records, seed, outDir, perClass] = rest;
  if (!store || !records || !seed || !outDir) throw new Error('usage: see the head of bench/tantivy-peer.ts');
  await exportJsonl(store, Number(records), Number(seed), outDir, Number(perClass ?? 100));
} else if (command === 'build') {
  const [tb, indexDir, recordsJsonl] = rest;
  if (!tb || !indexDir || !recordsJsonl) throw new Error('usage: see the head of bench/tantivy-peer.ts');
  build(tb, indexDir, recordsJsonl);
} else if (command === 'compare') compare(rest);
else throw new Error('usage: npm run bench:tantivy -- export|build|compare ... (see its head)');
