import Database from 'better-sqlite3';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../../deployments/registry';
import { searchColumns, type Deployment } from '../../deployments/schema';
import { generateRecords } from '../corpus/generate';
import { benchmarkTerms } from '../corpus/vocabulary';
import { parseListRequest } from '../http/criteria';
import { parseQueryString } from '../http/query-string';
import { and, compileQuery, drivingMatch, type Predicate } from './predicate.test-support';
import { columnWeights, orderedField } from '../../deployments/search-model';
import { tablesOf } from './sqlite/schema';
import { keyRecords } from './sqlite/key-lists';
import { indexText } from './sqlite/fts5-adapter';
import { storedTexts } from './sqlite/stored-text';
import { cachedStore } from './cached-store';
import { localCalls } from './engine-calls';
import { openEngine } from './sqlite/query-engine';
import { referenceIndex, referenceRank, type ReferenceIndex } from './reference-ranker.test-support';
import { openStoreWriter } from './sqlite/sqlite';
import type { Criteria, RecordStore, StoredRecord } from './types';

/**
 * The optimised store against the plain SQL it replaced: for each search, the same
 * exact total and the same records in the same order, page after page. The reference
 * is the straightforward query (one SQL statement with joins, ORDER BY, LIMIT/OFFSET) over
 * an FTS5 index of the stored text built here, FTS5's own bm25() included wherever FTS5 can
 * rank the search; where it cannot (words only beside a negation, `a OR -b`), the plain
 * reference ranker (reference-ranker.ts).
 */

const lit = deploymentByKey('LIT')!;
const sortColumn = (deployment: Deployment, field: string) => `r.${orderedField(deployment, field)!.column}`;

const referenceIndexes = new Map<Deployment, ReferenceIndex>();
function referenceIndexOf(db: Database.Database, deployment: Deployment): ReferenceIndex {
  if (!referenceIndexes.has(deployment)) referenceIndexes.set(deployment, referenceIndex(db, deployment));
  return referenceIndexes.get(deployment)!;
}

/** The reference ranking of a search's text, once for all its pages and other criteria (it reads every record). */
const referenceRanks = new Map<string, ReturnType<typeof referenceRank>>();
function referenceRankOf(db: Database.Database, deployment: Deployment, criteria: Criteria) {
  const key = JSON.stringify([deployment.key, criteria.text, criteria.order]);
  let ranked = referenceRanks.get(key);
  if (!ranked) referenceRanks.set(key, (ranked = referenceRank(referenceIndexOf(db, deployment), criteria)));
  return ranked;
}

/** The FTS5 index of a deployment's stored text that the reference searches (the store keeps none). */
const referenceFts = (deployment: Deployment) => `${tablesOf(deployment).tokenizing}_reference`;

function referenceSearch(db: Database.Database, deployment: Deployment, criteria: Criteria): { total: number; ids: string[] } {
  const t = { ...tablesOf(deployment), fts: referenceFts(deployment) };
  const textPredicates = criteria.text.map(({ columns, query }) => compileQuery(query, columns)).filter((p): p is Predicate => Boolean(p));
  const { match, rest } = drivingMatch(and(textPredicates));
  const where: string[] = [];
  const params: unknown[] = [];
  const predicateSql = (predicate: Predicate): string => {
    switch (predicate.kind) {
      case 'match':
        params.push(predicate.expr);
        return `r.id IN (SELECT rowid FROM ${t.fts} WHERE ${t.fts} MATCH ?)`;
      case 'not':
        return `NOT (${predicateSql(predicate.child)})`;
      case 'published':
        params.push(String(predicate.from), String(predicate.to + 1));
        // A record without a date is not of the year (not unknown, as SQL's NULL would have it under NOT).
        return `coalesce(${sortColumn(deployment, 'publication_date')} >= ? AND ${sortColumn(deployment, 'publication_date')} < ?, 0)`;
      default:
        return `(${predicate.children.map(predicateSql).join(predicate.kind === 'and' ? ' AND ' : ' OR ')})`;
    }
  };
  if (match) {
    where.push(`${t.fts} MATCH ?`);
    params.push(match);
  }
  for (const predicate of rest) where.push(predicateSql(predicate));
  for (const { key, value } of criteria.exact) {
    where.push(`r.id IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(keyRecords(db, t.keys, key, value)));
  }
  if (criteria.repoIds !== undefined) {
    where.push(`r.repo_id IN (${criteria.repoIds.map(() => '?').join(', ') || 'NULL'})`);
    params.push(...criteria.repoIds);
  }
  for (const { field, from, to } of criteria.dates) {
    if (from !== undefined) {
      where.push(`${sortColumn(deployment, field)} >= ?`);
      params.push(from);
    }
    if (to !== undefined) {
      where.push(`${sortColumn(deployment, field)} < ?`);
      params.push(to);
    }
  }
  const from = match ? `${t.fts} JOIN ${t.records} r ON r.id = ${t.fts}.rowid` : `${t.records} r`;
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (db.prepare(`SELECT count(*) AS n FROM ${from} ${whereSql}`).get(...params) as { n: number }).n;
  const direction = criteria.order === 'asc' ? 'ASC' : 'DESC';
  let orderBy: string;
  if (criteria.sort === 'relevance' && match) {
    const weights = searchColumns.map((column) => columnWeights[column]).join(', ');
    orderBy = `bm25(${t.fts}, ${weights}) ${criteria.order === 'asc' ? 'DESC' : 'ASC'}, r.repo_id ASC`;
  } else {
    const column = sortColumn(deployment, criteria.sort === 'relevance' ? 'publication_date' : criteria.sort);
    orderBy = `${column} IS NULL, ${column} ${direction}, r.repo_id ${direction}`;
  }
  // A year word's score is its word's, which a MATCH beside its date predicate leaves out.
  const years = criteria.text.some(({ query }) => JSON.stringify(query).includes('"years"'));
  const ranked = criteria.sort === 'relevance' && (!match || years) ? referenceRankOf(db, deployment, criteria) : undefined;
  if (ranked?.scored) {
    // Words that FTS5 cannot rank here (only beside a negation, as in `a OR -b`, or beside a
    // year's dates) are ranked by the search definition itself: the plain reference ranker
    // over the same matches.
    const matching = new Set(
      (db.prepare(`SELECT r.id AS id FROM ${from} ${whereSql}`).all(...params) as { id: number }[]).map((row) => row.id),
    );
    const repoIds = new Map(referenceIndexOf(db, deployment).records.map((record) => [record.id, record.repoId]));
    const ordered = ranked.ids.filter((id) => matching.has(id)).map((id) => repoIds.get(id)!);
    return { total, ids: ordered.slice(criteria.offset, criteria.offset + criteria.limit) };
  }
  const rows = db
    .prepare(`SELECT r.repo_id AS id FROM ${from} ${whereSql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`)
    .all(...params, criteria.limit, criteria.offset) as { id: string }[];
  return { total, ids: rows.map((row) => row.id) };
}

/** The reference's whole answer to a search in an order, once for all its pages (the reference reads every match to order them). */
const referenceAnswers = new Map<string, { total: number; ids: string[] }>();
function referencePage(db: Database.Database, deployment: Deployment, criteria: Criteria): { total: number; ids: string[] } {
  const key = JSON.stringify([deployment.key, { ...criteria, offset: 0, limit: 0 }]);
  let whole = referenceAnswers.get(key);
  if (!whole) referenceAnswers.set(key, (whole = referenceSearch(db, deployment, { ...criteria, offset: 0, limit: 1e9 })));
  return { total: whole.total, ids: whole.ids.slice(criteria.offset, criteria.offset + criteria.limit) };
}

let dir: string;
let path: string;
let store: RecordStore;
let reference: Database.Database;

/** Records whose repo_id order differs from insertion order, with ties in score and in date, and without dates. */
function extraRecords(template: ApiRecord): StoredRecord[] {
  const extra: StoredRecord[] = [];
  for (const [index, id] of ['9', '10', '100', '11', 'A-2', 'a-1', '099'].entries()) {
    extra.push({
      record: {
        ...template,
        repo_id: id,
        title: 'Identical twin record about temperature data',
        description: 'Same words, so the same score: temperature data reactor.',
        publication_date: index % 3 === 0 ? '' : '2015-06-01T00:00:00Z',
        entry_date: index % 2 === 0 ? '' : '2016-01-01T00:00:00Z',
      },
    });
  }
  return extra;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'records-engine-'));
  path = join(dir, 'store.db');
  const writer = openStoreWriter(path);
  const generated = [...generateRecords(lit, 2500, { seed: 3 })];
  writer.put('LIT', generated.slice(0, 1500));
  writer.put('LIT', extraRecords(generated[0]!.record));
  writer.put('LIT', generated.slice(1500));
  // Rewriting records keeps their ids but changes what they hold.
  writer.put(
    'LIT',
    generated.slice(100, 140).map((stored, index) => ({
      ...stored,
      record: {
        ...stored.record,
        publication_date: index % 4 === 0 ? '' : '1999-12-31T00:00:00Z',
        title: `${String(stored.record.title)} temperature`,
      },
    })),
  );
  writer.put('DC1', generateRecords(deploymentByKey('DC1')!, 300, { seed: 3 }));
  writer.close();
  // A small cache and ranking depth, so pages are served both from the cache and past it.
  store = cachedStore(localCalls(openEngine(path)), { budgetBytes: 64 * 1024, minDepth: 30 });
  reference = new Database(path, { readonly: true });
  for (const deployment of [lit, deploymentByKey('DC1')!])
    indexText(reference, referenceFts(deployment), storedTexts(reference, deployment));
}, 120_000);

afterAll(async () => {
  await store?.close();
  reference?.close();
  rmSync(dir, { recursive: true, force: true });
});

const searches = [
  '',
  `q=${benchmarkTerms.rare}`,
  `q=${benchmarkTerms.onePercent}`,
  `q=${benchmarkTerms.common}`,
  `q=${benchmarkTerms.nearlyAll}`,
  `q=${benchmarkTerms.common} ${benchmarkTerms.nearlyAll}`,
  `q="${benchmarkTerms.phrase}"`,
  `q=${benchmarkTerms.prefix}*`,
  `author=${benchmarkTerms.author}`,
  'title=reactor',
  'q=temperature OR reactor',
  'q=temperature -data',
  'q=-data',
  'q=reactor OR -data',
  'q=(temperature OR plasma) AND NOT (data OR reactor)',
  'publication_date_start=01/01/2015&publication_date_end=12/31/2016',
  `q=${benchmarkTerms.common}&publication_date_start=01/01/2015&publication_date_end=12/31/2016`,
  `q=${benchmarkTerms.common}&entry_date_start=01/01/2010`,
  'q=data&language=English',
  'q=temperature&has_fulltext=true',
  'has_fulltext=false&publication_date_end=12/31/1990',
  'repo_id=10',
  'q=data&repo_id=9',
  // Shapes the postings answer, and their edges.
  `q=${benchmarkTerms.common} ${benchmarkTerms.nearlyAll} reactor`,
  'q=data data',
  'q="temperature"',
  'q=Températures',
  'q=generalization*',
  'q=t*',
  'q=zzzzunknownword',
  'q=zzzz*',
  'q=heat-transfer',
  'q=temperature&title=reactor',
  'title=react*',
  'biblio=temperature',
  'q="temperature data"',
  'q="data data"',
  'q="Molten Salts" reactor',
  'title="temperature data"',
  'q="salt molten"',
  // Phrases of common words, read from their pair lists, and longer ones they narrow.
  'q="of the"',
  'q="in the"',
  'q="of of"',
  'q="effect of"',
  'q="analysis in"',
  'title="of the"',
  'q="of the data"',
  'q="the effect of the"',
  'q=("of the" OR "in the") -"on the"',
  'q=data NOT "of the"',
  // Year words: the word, or the year of publication (the extra records are of 2015, the rewritten ones of 1999).
  'q=temperature 2015',
  'q=1999',
  'q=1990-2015 reactor',
  'q=temperature -2015',
  'q=reactor OR 1999',
  'q="2015" temperature',
  'title=2015',
];
// Deep enough for every way of ordering relevance (engine/collector/): block-max top k, a heap, and a sort of every match.
const pagings = ['rows=20', 'rows=7&page=2', 'rows=50&page=3', 'rows=1000', 'rows=20&page=40', 'rows=3&page=600', 'rows=1000&page=3'];
const orders = [
  '',
  'sort=publication_date',
  'sort=publication_date&order=asc',
  'sort=entry_date&order=asc',
  'sort=title',
  'sort=title&order=desc',
  'order=asc',
];

describe('optimised search equals the plain SQL', () => {
  it('gives the same totals and pages for every search, sort and page', async () => {
    let compared = 0;
    for (const search of searches) {
      for (const order of orders) {
        for (const paging of pagings) {
          const query = [search, order, paging].filter(Boolean).join('&');
          const { criteria } = parseListRequest(lit, parseQueryString(query));
          const expected = referencePage(reference, lit, criteria);
          const actual = await store.search('LIT', criteria);
          expect({ query, total: actual.total, ids: actual.records.map((record) => record.repo_id) }).toEqual({ query, ...expected });
          compared++;
        }
      }
    }
    expect(compared).toBe(searches.length * orders.length * pagings.length);
  }, 120_000);

  it('agrees too where ids follow repo_id order (ties then break on rowid), and keeps deployments apart', async () => {
    // DC1 holds generated records only, inserted in repo_id order.
    const dc1 = deploymentByKey('DC1')!;
    let compared = 0;
    for (const search of searches) {
      for (const order of ['', 'order=asc', 'sort=title']) {
        const query = [search, order, 'rows=15&page=2'].filter(Boolean).join('&');
        let criteria: Criteria;
        try {
          criteria = parseListRequest(dc1, parseQueryString(query)).criteria;
        } catch {
          continue; // a LIT-only parameter
        }
        const expected = referenceSearch(reference, dc1, criteria);
        const actual = await store.search('DC1', criteria);
        expect({ query, total: actual.total, ids: actual.records.map((record) => record.repo_id) }).toEqual({ query, ...expected });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('ranks any AND of words, prefixes and phrases, in any parameter, exactly as FTS5 does', async () => {
    // Words of the generated corpus, common and rare, with stems and accents.
    const words = [
      benchmarkTerms.common,
      benchmarkTerms.nearlyAll,
      benchmarkTerms.onePercent,
      benchmarkTerms.rare,
      benchmarkTerms.author,
      'reactor',
      'plasma',
      'grid',
      'carbon',
      'fuel',
      'solar',
      'thermal',
      'Temperatures',
      'générale',
      'salt',
      'molten',
      'study',
      // Common words: their adjacent pairs have lists of their own.
      'of',
      'the',
      'in',
      'and',
      'effect',
      'analysis',
    ];
    const single = fc
      .tuple(fc.constantFrom(...words), fc.nat({ max: 4 }))
      .map(([w, cut]) => (cut > 0 && w.length > cut + 2 ? `${w.slice(0, w.length - cut)}*` : w));
    const phrase = fc.array(fc.constantFrom(...words), { minLength: 2, maxLength: 3 }).map((ws) => `"${ws.join(' ')}"`);
    const word = fc.oneof({ arbitrary: single, weight: 3 }, { arbitrary: phrase, weight: 1 });
    const param = fc.constantFrom('q', 'title', 'author', 'biblio', 'subject');
    const search = fc.uniqueArray(fc.tuple(param, fc.array(word, { minLength: 1, maxLength: 3 })), {
      minLength: 1,
      maxLength: 2,
      selector: ([name]) => name,
    });
    const engine = openEngine(path);
    try {
      await fc.assert(
        fc.asyncProperty(
          search,
          fc.constantFrom('', 'order=asc', 'sort=title'),
          fc.constantFrom('rows=20', 'rows=1000&page=3'),
          async (parts, order, paging) => {
            const query = [...parts.map(([name, ws]) => `${name}=${encodeURIComponent(ws.join(' '))}`), order, paging]
              .filter(Boolean)
              .join('&');
            const { criteria } = parseListRequest(lit, parseQueryString(query));
            const actual = await store.search('LIT', criteria);
            expect({ query, total: actual.total, ids: actual.records.map((record) => record.repo_id) }).toEqual({
              query,
              ...referenceSearch(reference, lit, criteria),
            });
          },
        ),
        { numRuns: 150 },
      );
    } finally {
      engine.close();
    }
  }, 120_000);
});
