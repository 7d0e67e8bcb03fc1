import Database from 'better-sqlite3';
import fc from 'fast-check';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../../deployments/registry';
import { searchColumns } from '../../../../deployments/schema';
import { generateRecords } from '../../../corpus/generate';
import { parseListRequest } from '../../../http/criteria';
import { parseQueryString } from '../../../http/query-string';
import { openEngine } from '../query-engine';
import { BlockFrontier } from '../../../engine/postings/block-frontier';
import { blockSize, decodePostings, StoredPostings } from '../../../engine/postings/block-postings';
import { buildPostings } from './postings';
import { buildPairs, storedCommon } from './pair-postings';
import { storedPostings as readWithTail } from './postings-tails';
import { commonDocs, pairColumnOf, pairColumns, pairScopes } from '../../../engine/postings/pairs';
import { decodePositions, StoredPositions } from '../../../engine/postings/positions';
import { columnWeights } from '../../../../deployments/search-model';
import { tablesOf } from '../schema';
import { termScopes } from './term-rows';
import { tokenListIn } from '../../../engine/postings/token-columns';
import { indexText } from '../fts5-adapter';
import { storedTexts } from '../stored-text';
import { openStoreWriter } from '../sqlite';

const lit = deploymentByKey('LIT')!;
const t = tablesOf(lit);
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'records-postings-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The postings as FTS5 itself reports them, over an index of the stored text made here: every instance of every token (in `column`, or in any), weighted by column. */
function instancesFromFts(path: string, column?: string): Map<string, [number, number][]> {
  const db = new Database(path, { readonly: true });
  try {
    indexText(db, 'check_fts', storedTexts(db, lit));
    db.exec(`CREATE VIRTUAL TABLE temp.check_instances USING fts5vocab(temp, check_fts, 'instance')`);
    const byToken = new Map<string, [number, number][]>();
    for (const { term, doc, col } of db.prepare(`SELECT term, doc, col FROM temp.check_instances`).iterate() as Iterable<{
      term: string;
      doc: number;
      col: string;
    }>) {
      if (column !== undefined && col !== column) continue;
      const weight = columnWeights[col as (typeof searchColumns)[number]];
      const list = byToken.get(term) ?? byToken.set(term, []).get(term)!;
      const last = list[list.length - 1];
      if (last && last[0] === doc) last[1] += weight;
      else list.push([doc, weight]);
    }
    return byToken;
  } finally {
    db.close();
  }
}

function storedPostings(path: string, column = ''): Map<string, [number, number][]> {
  const db = new Database(path, { readonly: true });
  try {
    // A token's lists are found by its number in the term dictionary (term-rows.ts).
    const rows = db
      .prepare(`SELECT term, docs, data FROM ${t.terms} JOIN ${t.postings} ON ${t.postings}.id = ${t.terms}.id * ${termScopes} + ?`)
      .all(column === '' ? 0 : 1 + searchColumns.indexOf(column as (typeof searchColumns)[number])) as {
      term: string;
      docs: number;
      data: Buffer;
    }[];
    return new Map(
      rows.map(({ term, docs, data }) => {
        const { ids, counts } = decodePostings(new StoredPostings(data));
        expect(ids.length).toBe(docs);
        return [term, Array.from(ids, (id, i) => [id, counts[i]!] as [number, number])];
      }),
    );
  } finally {
    db.close();
  }
}

/**
 * Every list of the postings, positions and pair tables as readers read it, tail appended,
 * with the lengths and common tokens, in key order; and how many tail rows there were.
 */
/** The blocks of a list whose frontier is not what their records give under `lengths`. */
function staleFrontiers(list: StoredPostings, lengths: Uint32Array): number {
  const frontier = new BlockFrontier(blockSize);
  const { starts, counts, lengths: shortest } = list.frontiers;
  let stale = 0;
  for (let b = 0; b < list.blocks; b++) {
    const [ids, blockCounts] = [list.ids(b), list.counts(b)];
    frontier.clear();
    for (let i = 0; i < ids.length; i++) frontier.add(blockCounts[i]!, lengths[ids[i]!] ?? 0);
    const pairs = Array.from({ length: starts[b + 1]! - starts[b]! }, (_, k) => [counts[starts[b]! + k], shortest[starts[b]! + k]]);
    if (
      JSON.stringify(pairs) !== JSON.stringify(Array.from({ length: frontier.size }, (_, k) => [frontier.counts[k], frontier.lengths[k]]))
    )
      stale++;
  }
  return stale;
}

function postingsTables(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    // A list's key and col are its integer row: a pair's (pairs.ts's pairRow), a token's number (term-rows.ts) named by the term dictionary.
    const named = (table: string) =>
      table === t.pairs
        ? `whole.id / ${pairScopes}, whole.id % ${pairScopes}`
        : `(SELECT term FROM ${t.terms} WHERE ${t.terms}.id = whole.id / ${termScopes}), whole.id % ${termScopes}`;
    const lists = (table: string) =>
      (
        db
          .prepare(
            `SELECT ${named(table)}, whole.data, tail.data FROM ${table} AS whole LEFT JOIN ${table}_tail AS tail USING (id) ORDER BY 1, 2`,
          )
          .raw()
          .all() as [string | number, number, Buffer, Buffer | null][]
      ).map(([name, col, whole, tail]) => {
        const parts = [new StoredPostings(whole), ...(tail ? [new StoredPostings(tail)] : [])];
        const { ids, counts } = readWithTail({ whole: parts[0]!, ...(parts[1] ? { tail: parts[1] } : {}) });
        // Each block's frontier as its records give it under the stored lengths: else block-max could skip a block it should score.
        const stale = parts.reduce((sum, part) => sum + staleFrontiers(part, recordLengths), 0);
        return { name, col, ids: Array.from(ids), counts: Array.from(counts), stale };
      });
    const stored = db.prepare(`SELECT data FROM ${t.lengths}`).pluck().get() as Buffer | undefined;
    const recordLengths = stored ? new Uint32Array(new Uint8Array(stored).buffer) : new Uint32Array(0);
    const tailRows = (table: string) => db.prepare(`SELECT count(*) FROM ${table}_tail`).pluck().get() as number;
    // A tail with no list before it would be read by no one, nor a list whose token is not in the dictionary, nor a token without lists.
    const orphans = [
      ...[t.postings, t.positions, t.pairs].map(
        (table) =>
          db
            .prepare(
              `SELECT count(*) FROM ${table}_tail AS tail WHERE NOT EXISTS (SELECT 1 FROM ${table} AS whole WHERE whole.id = tail.id)`,
            )
            .pluck()
            .get() as number,
      ),
      db
        .prepare(
          `SELECT count(*) FROM ${t.postings} AS whole WHERE NOT EXISTS (SELECT 1 FROM ${t.terms} WHERE ${t.terms}.id = whole.id / ${termScopes})`,
        )
        .pluck()
        .get() as number,
      db
        .prepare(
          `SELECT count(*) FROM ${t.terms} WHERE NOT EXISTS (SELECT 1 FROM ${t.postings} AS whole WHERE whole.id = ${t.terms}.id * ${termScopes})`,
        )
        .pluck()
        .get() as number,
      db
        .prepare(
          `SELECT count(*) FROM ${t.positions} AS whole WHERE NOT EXISTS (SELECT 1 FROM ${t.postings} WHERE ${t.postings}.id = whole.id * ${termScopes})`,
        )
        .pluck()
        .get() as number,
    ];
    return {
      lists: {
        postings: lists(t.postings),
        // Each token's instances as a reader reads them, tail after list.
        positions: (
          db
            .prepare(
              `SELECT term, whole.data, tail.data FROM ${t.positions} AS whole JOIN ${t.terms} USING (id) LEFT JOIN ${t.positionsTail} AS tail USING (id) ORDER BY term`,
            )
            .raw()
            .all() as [string, Buffer, Buffer | null][]
        ).map(([term, whole, tail]) => {
          const { counts, columns, offsets } = decodePositions([whole, ...(tail ? [tail] : [])].map((data) => new StoredPositions(data)));
          return { term, counts: Array.from(counts), columns: Array.from(columns), offsets: Array.from(offsets) };
        }),
        lengths: db.prepare(`SELECT rows, tokens, hex(data) AS data FROM ${t.lengths}`).all(),
        common: db.prepare(`SELECT term FROM ${t.common} ORDER BY term`).pluck().all(),
        pairs: lists(t.pairs),
        orphans,
      },
      tails: tailRows(t.postings) + tailRows(t.positions) + tailRows(t.pairs),
    };
  } finally {
    db.close();
  }
}

describe('postings', () => {
  it('hold every token of the index with its documents and column-weighted counts, over whole records and per column, as FTS5 reports them', () => {
    const path = join(dir, 'exact.db');
    const writer = openStoreWriter(path);
    writer.put('LIT', generateRecords(lit, 400, { seed: 5 }));
    writer.close();
    for (const column of [undefined, ...searchColumns]) {
      // The description and biblio columns keep no lists of their own (token-columns.ts).
      const expected = tokenListIn(column) ? instancesFromFts(path, column) : new Map();
      const actual = storedPostings(path, column);
      expect({ column, tokens: actual.size }).toEqual({ column, tokens: expected.size });
      for (const [token, list] of expected) expect({ column, token, list: actual.get(token) }).toEqual({ column, token, list });
    }
    expect(storedPostings(path).size).toBeGreaterThan(1000);
    expect(storedPostings(path, 'title').size).toBeGreaterThan(100);
    expect(instancesFromFts(path, 'description').size).toBeGreaterThan(1000);
  });

  it('are updated by each write in its own transaction, so a reader between writes already finds them current', () => {
    const path = join(dir, 'rewrite.db');
    const writer = openStoreWriter(path);
    const [first] = generateRecords(lit, 1, { seed: 6 });
    writer.put('LIT', generateRecords(lit, 50, { seed: 6 }));
    writer.put('LIT', [{ ...first!, record: { ...first!.record, title: 'Quasicrystalline zyzzyvites' } }]);
    // Before the writer closes, a reader on another connection searches the new word from the postings.
    const engine = openEngine(path);
    try {
      expect(engine.rank('LIT', parseListRequest(lit, parseQueryString('q=zyzzyvites')).criteria, 20).total).toBe(1);
    } finally {
      engine.close();
    }
    expect(storedPostings(path)).toEqual(instancesFromFts(path));
    writer.close();
  });

  // 25 stores written and rebuilt: minutes, not seconds, on a busy machine.
  it('kept up to date write by write, tails included, equal the postings a full rebuild gives', { timeout: 180_000 }, () => {
    const pool = [...generateRecords(lit, 60, { seed: 11 })];
    const titles = [
      'Molten salt reactor data',
      'Zeolite temperature study',
      '',
      'Thermal data of molten zeolites',
      'Effect of the data of the',
    ];
    let run = 0;
    let pairRuns = 0;
    let tailRuns = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.array(
            fc.record({
              pick: fc.nat({ max: pool.length - 1 }),
              title: fc.option(fc.constantFrom(...titles), { nil: undefined }),
              drop: fc.boolean(),
            }),
            { minLength: 1, maxLength: 12 },
          ),
          { minLength: 1, maxLength: 5 },
        ),
        (batches) => {
          const path = join(dir, `incremental-${run++}.db`);
          const writer = openStoreWriter(path);
          // Enough records first for common tokens (pairs.ts), then writes that replace some and add others.
          writer.put('LIT', pool.slice(0, 40));
          for (const batch of batches) {
            writer.put(
              'LIT',
              batch.map(({ pick, title, drop }) => {
                const stored = pool[pick]!;
                const record = { ...stored.record, ...(title !== undefined ? { title } : {}) };
                if (drop) delete (record as Record<string, unknown>).description;
                return { ...stored, record };
              }),
            );
          }
          writer.close();
          const incremental = postingsTables(path);
          const rebuilt = join(dir, `rebuilt-${run}.db`);
          copyFileSync(path, rebuilt);
          const db = new Database(rebuilt);
          // Only a full build chooses the common tokens: the rebuild is given the ones the writes kept.
          db.transaction(() => buildPostings(db, lit, { common: storedCommon(db, lit) }))();
          db.close();
          const full = postingsTables(rebuilt);
          expect(full.tails).toBe(0);
          expect(incremental.lists).toEqual(full.lists);
          if (incremental.lists.pairs.length > 0) pairRuns++;
          if (incremental.tails > 0) tailRuns++;
          rmSync(path);
          rmSync(rebuilt);
        },
      ),
      {
        numRuns: 25,
        // Writes that only add records, which always leave tails, beside the random ones: the
        // checks below then hold whatever the random writes happen to be.
        examples: [40, 44, 48, 52].map((first): [{ pick: number; title: string | undefined; drop: boolean }[][]] => [
          [0, 1, 2].map((n) => [{ pick: first + n, title: undefined, drop: false }]),
        ]),
      },
    );
    expect(pairRuns).toBeGreaterThan(5);
    expect(tailRuns).toBeGreaterThan(3);
  });

  it('hold a list for every pair of adjacent common tokens, in the pair columns too, with the count the two-word phrase has', () => {
    const path = join(dir, 'pairs.db');
    const writer = openStoreWriter(path);
    writer.put('LIT', generateRecords(lit, 400, { seed: 8 }));
    writer.close();
    const db = new Database(path, { readonly: true });
    try {
      indexText(db, 'pair_fts', storedTexts(db, lit));
      db.exec(`CREATE VIRTUAL TABLE temp.pair_rows USING fts5vocab(temp, pair_fts, 'row')`);
      db.exec(`CREATE VIRTUAL TABLE temp.pair_instances USING fts5vocab(temp, pair_fts, 'instance')`);
      const common = new Set(db.prepare(`SELECT term FROM temp.pair_rows WHERE doc >= ?`).pluck().all(commonDocs(400)) as string[]);
      expect(storedCommon(db, lit)).toEqual([...common].sort());
      expect(common).toContain('of');
      // The token at each place, then every place a common token follows another in the same column.
      const at = new Map<string, string>();
      const instances = db.prepare(`SELECT term, doc, col, "offset" FROM temp.pair_instances`).raw().all() as [
        string,
        number,
        string,
        number,
      ][];
      for (const [term, doc, col, offset] of instances) at.set(`${doc} ${col} ${offset}`, term);
      const expected = new Map<string, [number, number][]>();
      for (const [term, doc, col, offset] of [...instances].sort((x, y) => x[1] - y[1])) {
        const next = at.get(`${doc} ${col} ${offset + 1}`);
        if (!next || !common.has(term) || !common.has(next)) continue;
        const weight = columnWeights[col as (typeof searchColumns)[number]];
        for (const scope of ['', ...pairColumns.filter((kept) => kept === col)]) {
          const key = `${term} ${next}|${scope}`;
          const list = expected.get(key) ?? expected.set(key, []).get(key)!;
          const last = list[list.length - 1];
          if (last && last[0] === doc) last[1] += weight;
          else list.push([doc, weight]);
        }
      }
      const words = storedCommon(db, lit);
      const stored = new Map(
        (db.prepare(`SELECT id, data FROM ${t.pairs}`).raw().all() as [number, Buffer][]).map(([row, data]) => {
          const { ids, counts } = decodePostings(new StoredPostings(data));
          // The row numbers the two tokens among the common ones, then the list's column.
          const pair = Math.floor(row / pairScopes);
          const key = `${words[Math.floor(pair / words.length)]} ${words[pair % words.length]}|${pairColumnOf(row)}`;
          return [key, Array.from(ids, (id, i) => [id, counts[i]!] as [number, number])];
        }),
      );
      expect(stored.size).toBe(expected.size);
      expect(stored.get('of the|')!.length).toBeGreaterThan(20);
      for (const [key, list] of expected) expect({ key, list: stored.get(key) }).toEqual({ key, list });
    } finally {
      db.close();
    }
  });

  it('built a few records at a time, each pair from its pieces, equal the lists built at once', () => {
    const path = join(dir, 'pair-ranges.db');
    const writer = openStoreWriter(path);
    writer.put('LIT', generateRecords(lit, 300, { seed: 9 }));
    writer.close();
    const db = new Database(path);
    try {
      const pairs = () => db.prepare(`SELECT id, docs, hex(data) FROM ${t.pairs} ORDER BY id`).raw().all();
      const atOnce = pairs();
      const { rows, data } = db.prepare(`SELECT rows, data FROM ${t.lengths}`).get() as { rows: number; data: Buffer };
      db.exec(`DELETE FROM ${t.pairs}; DELETE FROM ${t.common}`);
      buildPairs(db, lit, new Uint32Array(new Uint8Array(data).buffer), rows, { recordsAtOnce: 7 });
      expect(atOnce.length).toBeGreaterThan(100);
      expect(pairs()).toEqual(atOnce);
    } finally {
      db.close();
    }
  });

  it(
    "gathered from a bulk load's records as they are written equal those drawn back from the stored rows, whatever the load gives",
    { timeout: 180_000 },
    () => {
      const records = () => [...generateRecords(lit, 240, { seed: 12 })];
      const failing = function* () {
        yield* records().slice(0, 50);
        throw new Error('the source failed');
      };
      const loads: Record<string, (writer: ReturnType<typeof openStoreWriter>) => void> = {
        'one write': (writer) => writer.put('LIT', records()),
        // The second of a repo_id replaces the first, whose text is no longer stored.
        'a record given twice': (writer) => {
          const all = records();
          writer.put('LIT', [...all, { ...all[10]!, record: { ...all[10]!.record, title: 'Replaced title words' } }, ...all.slice(200)]);
        },
        'two writes': (writer) => {
          writer.put('LIT', records().slice(0, 100));
          writer.put('LIT', records().slice(100));
        },
        'a failed write, then one': (writer) => {
          expect(() => writer.put('LIT', failing())).toThrow('the source failed');
          writer.put('LIT', records());
        },
        'a write, then a failed one': (writer) => {
          writer.put('LIT', records().slice(0, 150));
          expect(() => writer.put('LIT', failing())).toThrow('the source failed');
        },
      };
      for (const [name, load] of Object.entries(loads)) {
        const path = join(dir, `gathered-${name.replace(/\W+/g, '-')}.db`);
        const writer = openStoreWriter(path, { bulk: true });
        load(writer);
        writer.close();
        const gathered = postingsTables(path).lists;
        const db = new Database(path);
        try {
          db.transaction(() => buildPostings(db, lit))();
        } finally {
          db.close();
        }
        expect(gathered.postings.length, name).toBeGreaterThan(1000);
        expect({ name, ...gathered }).toEqual({ name, ...postingsTables(path).lists });
      }
    },
  );
});
