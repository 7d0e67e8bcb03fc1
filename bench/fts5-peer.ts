import Database from 'better-sqlite3';
import { rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { deploymentByKey } from '../src/deployments/registry';
import { searchColumns, type Deployment } from '../src/deployments/schema';
import { columnWeights, orderedField } from '../src/deployments/search-model';
import { parseListRequest } from '../src/server/http/criteria';
import { parseQueryString } from '../src/server/http/query-string';
import { openEngine } from '../src/server/store/sqlite/query-engine';
import { and, compileQuery, drivingMatch, type Predicate } from '../src/server/store/predicate.test-support';
import { keyRecords } from '../src/server/store/sqlite/key-lists';
import { ftsTokenizer, tablesOf } from '../src/server/store/sqlite/schema';
import { storedTexts } from '../src/server/store/sqlite/stored-text';
import type { Criteria } from '../src/server/store/types';
import { basePath } from './queries';
import { asServed } from './served-engine';
import { summarize } from './stats';

/**
 * SQLite FTS5 as an in-process peer (issue 41 item 1): an FTS5 index of the same records' text
 * (the store's own text, drawn from its records as the postings were, with the tokenizer the store's postings are built with, columns
 * weighted as the search model weights them), asked the same distinct searches the real-traffic
 * run sent, each compiled to one FTS5 query as the engine's tests compile them
 * (predicate.test-support.ts), in the same process and thread as our engine asked the same: the
 * total (count(*)) and the first 20 records by bm25() with their bodies, against our engine's
 * rank + fetch of the same page, uncached. Dates and year words are the store's own date column,
 * joined. Facets classes and `/suggest` are not FTS5's to answer and are left out.
 */

export interface PeerClass {
  readonly id: string;
  readonly label: string;
  readonly n: number;
  readonly ours: { readonly p50: number; readonly p95: number };
  readonly fts5: { readonly p50: number; readonly p95: number };
  /** Queries whose totals agree. */
  readonly sameTotal: number;
}

export interface PeerResult {
  readonly peer: string;
  readonly tokenizer: string;
  readonly records: number;
  /** CPU (user + system) of building the FTS5 index and merging it into one segment (`optimize`). */
  readonly buildCpuSeconds: number;
  readonly buildSeconds: number;
  /** The FTS5 index file (contentless: the index and document sizes, no copy of the text). */
  readonly indexBytes: number;
  /** Our store's text index: postings, positions, pair lists and their tails (dbstat). */
  readonly oursTextIndexBytes?: number;
  readonly oursStoreBytes: number;
  readonly classes: readonly PeerClass[];
  readonly agreement: { readonly same: number; readonly of: number; readonly examples: readonly string[] };
}

/** The paths each traffic class sent, in order: what the peer is asked. */
export type SentPaths = ReadonlyMap<string, { readonly label: string; readonly paths: readonly string[] }>;

const pageRows = 20;

function ms(since: number) {
  return Math.round((performance.now() - since) * 100) / 100;
}

/** FTS5 asked one search: its total and the first page's bodies. */
function fts5Search(db: Database.Database, deployment: Deployment, criteria: Criteria): number {
  const t = tablesOf(deployment);
  const records = `s.${t.records}`;
  const dateColumn = (field: string) => `r.${orderedField(deployment, field)!.column}`;
  const predicate = and(criteria.text.map(({ columns, query }) => compileQuery(query, columns)).filter((p): p is Predicate => Boolean(p)));
  const { match, rest } = drivingMatch(predicate);
  const where: string[] = [];
  const params: unknown[] = [];
  const predicateSql = (p: Predicate): string => {
    switch (p.kind) {
      case 'match':
        params.push(p.expr);
        return `r.id IN (SELECT rowid FROM peer WHERE peer MATCH ?)`;
      case 'not':
        return `NOT (${predicateSql(p.child)})`;
      case 'published':
        params.push(String(p.from), String(p.to + 1));
        return `coalesce(${dateColumn('publication_date')} >= ? AND ${dateColumn('publication_date')} < ?, 0)`;
      default:
        return `(${p.children.map(predicateSql).join(p.kind === 'and' ? ' AND ' : ' OR ')})`;
    }
  };
  if (match) {
    where.push('peer MATCH ?');
    params.push(match);
  }
  for (const p of rest) where.push(predicateSql(p));
  for (const { key, value } of criteria.exact) {
    // The store's key lists, read as its engine reads them (key-lists.ts): FTS5 has no keys of its own.
    where.push(`r.id IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(keyRecords(db, `s.${t.keys}`, key, value)));
  }
  for (const { field, from, to } of criteria.dates) {
    if (from !== undefined) {
      where.push(`${dateColumn(field)} >= ?`);
      params.push(from);
    }
    if (to !== undefined) {
      where.push(`${dateColumn(field)} < ?`);
      params.push(to);
    }
  }
  const from = match ? `peer JOIN ${records} r ON r.id = peer.rowid` : `${records} r`;
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = db
    .prepare(`SELECT count(*) FROM ${from} ${whereSql}`)
    .pluck()
    .get(...params) as number;
  const weights = searchColumns.map((column) => columnWeights[column]).join(', ');
  const orderBy = match
    ? `bm25(peer, ${weights}), r.repo_id`
    : `${dateColumn('publication_date')} IS NULL, ${dateColumn('publication_date')} DESC, r.repo_id DESC`;
  db.prepare(`SELECT r.doc FROM ${from} ${whereSql} ORDER BY ${orderBy} LIMIT ${pageRows}`)
    .raw()
    .all(...params);
  return total;
}

/** `capSeconds`: the most time one class's FTS5 searches may take before the class stops (it reports fewer). */
export function measureFts5Peer(
  storePath: string,
  sent: SentPaths,
  peerDir: string,
  capSeconds: number,
  log: (line: string) => void,
): PeerResult {
  const lit = deploymentByKey('LIT')!;
  const t = tablesOf(lit);
  const peerPath = resolve(peerDir, 'fts5-peer.db');
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(peerPath + suffix, { force: true });
  const db = new Database(peerPath);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  // Only read: the store's text to index, its dates, keys and record bodies to answer with.
  db.prepare('ATTACH DATABASE ? AS s').run(storePath);
  const version = db.prepare('SELECT sqlite_version()').pluck().get() as string;
  const records = db.prepare(`SELECT count(*) FROM s.${t.records}`).pluck().get() as number;
  log(`FTS5 peer: building an index of ${records.toLocaleString('en')} records' text (SQLite ${version}) ...`);
  // The store keeps each record's text once, in its body: drawn from it first, outside the peer's timed build.
  db.exec(`CREATE TEMP TABLE peer_text (id INTEGER PRIMARY KEY, ${searchColumns.join(', ')})`);
  const putText = db.prepare(`INSERT INTO peer_text VALUES (?, ${searchColumns.map(() => '?').join(', ')})`);
  for (const [id, text] of storedTexts(db, lit)) putText.run(id, ...searchColumns.map((column) => text[column]));
  const cpu = process.cpuUsage();
  const started = performance.now();
  db.exec(`CREATE VIRTUAL TABLE peer USING fts5(${searchColumns.join(', ')}, tokenize='${ftsTokenizer}', content='')`);
  db.prepare(`INSERT INTO peer (rowid, ${searchColumns.join(', ')}) SELECT id, ${searchColumns.join(', ')} FROM temp.peer_text`).run();
  db.exec(`INSERT INTO peer (peer) VALUES ('optimize')`);
  const used = process.cpuUsage(cpu);
  db.exec('DROP TABLE temp.peer_text');
  const buildSeconds = (performance.now() - started) / 1000;
  db.exec('VACUUM');
  const indexBytes = statSync(peerPath).size;
  log(
    `FTS5 peer: built in ${buildSeconds.toFixed(1)} s (CPU ${((used.user + used.system) / 1e6).toFixed(1)} s), ${(indexBytes / 1e6).toFixed(0)} MB`,
  );

  let oursTextIndexBytes: number | undefined;
  try {
    const tables = [t.terms, t.postings, t.positions, t.pairs, t.common, t.lengths, t.postingsTail, t.positionsTail, t.pairsTail];
    oursTextIndexBytes = db
      .prepare(
        `SELECT sum(d.pgsize) FROM dbstat d JOIN s.sqlite_master m ON m.name = d.name WHERE d.schema = 's' AND m.tbl_name IN (${tables.map(() => '?').join(', ')})`,
      )
      .pluck()
      .get(...tables) as number;
  } catch {
    // dbstat is not in every SQLite build; the store's size stands alone then.
  }

  const engine = openEngine(storePath, asServed);
  engine.warmSearch();
  const classes: PeerClass[] = [];
  const mismatches: string[] = [];
  let same = 0;
  let of = 0;
  try {
    for (const [id, { label, paths }] of sent) {
      const searches = paths.filter((path) => path.startsWith(`${basePath}/records?`));
      if (searches.length === 0) continue;
      const ours: number[] = [];
      const fts5: number[] = [];
      let sameTotal = 0;
      let spent = 0;
      for (const path of searches) {
        if (spent > capSeconds * 1000) break;
        const request = parseListRequest(lit, parseQueryString(path.slice(path.indexOf('?') + 1)));
        const criteria = { ...request.criteria, offset: 0, limit: pageRows };
        let started = performance.now();
        const ranked = engine.rank('LIT', criteria, pageRows);
        engine.fetch('LIT', ranked.ids.subarray(0, pageRows));
        ours.push(ms(started));
        started = performance.now();
        const total = fts5Search(db, lit, criteria);
        fts5.push(ms(started));
        spent += fts5.at(-1)!;
        if (total === ranked.total) sameTotal++;
        else if (mismatches.length < 5) mismatches.push(`${decodeURIComponent(path)}: ours ${ranked.total}, FTS5 ${total}`);
      }
      const o = summarize(ours);
      const f = summarize(fts5);
      classes.push({ id, label, n: fts5.length, ours: { p50: o.p50, p95: o.p95 }, fts5: { p50: f.p50, p95: f.p95 }, sameTotal });
      same += sameTotal;
      of += fts5.length;
      log(
        `FTS5 peer ${id.padEnd(14)} n ${String(fts5.length).padStart(4)}  ours p50 ${o.p50} p95 ${o.p95}  FTS5 p50 ${f.p50} p95 ${f.p95}  same total ${sameTotal}`,
      );
    }
  } finally {
    engine.close();
    db.close();
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(peerPath + suffix, { force: true });
  }
  return {
    peer: `SQLite FTS5 ${version} (better-sqlite3), in process`,
    tokenizer: ftsTokenizer,
    records,
    buildCpuSeconds: Math.round(((used.user + used.system) / 1e6) * 10) / 10,
    buildSeconds: Math.round(buildSeconds * 10) / 10,
    indexBytes,
    ...(oursTextIndexBytes !== undefined ? { oursTextIndexBytes } : {}),
    oursStoreBytes: statSync(storePath).size,
    classes,
    agreement: { same, of, examples: mismatches },
  };
}
