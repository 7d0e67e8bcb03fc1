import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import { parseListRequest } from '../../http/criteria';
import { parseQueryString } from '../../http/query-string';
import { buildRecord } from '../../http/server-fixture.test-support';
import { openStore, openStoreWriter } from '../sqlite/sqlite';
import type { FacetRequest, RecordStore, StoredRecord } from '../types';
import { loadFacetIndex } from './column-reader';

/**
 * Facet columns kept write by write (facet-columns.ts) count as a store written at once
 * with the same records: new records in several writes (a column's tail), records replaced
 * in the middle of the store with other values, and names whose joins come and go as
 * other records arrive (name-joins.ts). And a reader opening the store reads the columns,
 * never the keys table the values were once drawn from.
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-facet-columns-'));

const named = (id: string, author: string, language = 'English') =>
  buildRecord(lit, { id, title: `Plasma notes ${id}`, authors: [author], published: '2011-05-01T00:00:00Z', language });

/** The writes, in order: each a batch of records, replacing by repo_id. */
const writes: StoredRecord[][] = [
  [...generateRecords(lit, 1100, { seed: 9, startId: 1 })],
  [...generateRecords(lit, 200, { seed: 9, startId: 1101 }), named('9001', 'Fredrickson, E.')],
  // Other values for records already stored, across two blocks.
  [...generateRecords(lit, 150, { seed: 10, startId: 950 }), named('9002', 'Fredrickson, Eric D.')],
  // A third form breaks the join of the shortest one, and a replaced record leaves its old values.
  [named('9003', 'Fredrickson, E. M.'), named('9001', 'Fredrickson, E.', 'French'), named('10', 'Fredrickson, E. D.')],
];

const finalRecords = () => {
  const last = new Map<string, StoredRecord>();
  for (const batch of writes) for (const stored of batch) last.set(stored.record.repo_id, stored);
  return [...last.values()];
};

function written(name: string, batches: readonly StoredRecord[][]): string {
  const path = join(dir, name);
  const writer = openStoreWriter(path);
  try {
    for (const batch of batches) writer.put('LIT', batch);
  } finally {
    writer.close();
  }
  return path;
}

let stepwise: string;
let fresh: string;
let stores: RecordStore[];

beforeAll(() => {
  stepwise = written('stepwise.db', writes);
  fresh = written('fresh.db', [finalRecords()]);
  stores = [openStore(stepwise), openStore(fresh)];
});

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('facet columns', () => {
  it('count what a store written at once with the same records counts, after new, replaced and joining records', async () => {
    for (const sort of ['count', 'value'] as const) {
      const everyFacet: FacetRequest[] = lit.facets.map(({ name }) => ({ name, limit: 100_000, offset: 0, sort }));
      for (const search of ['', 'q=reactor', 'language=French', 'facet.author=Fredrickson, Eric D.', 'publication_date_start=01/01/2010']) {
        const { criteria } = parseListRequest(lit, parseQueryString(search));
        const [fromColumns, fromFresh] = await Promise.all(stores.map((store) => store.facets('LIT', criteria, everyFacet)));
        expect(fromColumns, `${search} by ${sort}`).toEqual(fromFresh);
      }
    }
  });

  it('join a name’s shorter forms only while they form one chain', async () => {
    const author: FacetRequest = { name: 'author', limit: 100_000, offset: 0, sort: 'value' };
    const { criteria } = parseListRequest(lit, parseQueryString('q=plasma'));
    const { facets } = await stores[0]!.facets('LIT', criteria, [author]);
    const fredricksons = facets[0]!.values.filter(({ value }) => value.startsWith('Fredrickson'));
    // `E.` stands alone again: `E. M.` and `E. D.` (`Eric D.` its other spelling) both go on from it.
    expect(fredricksons.map(({ value, count }) => [value, count])).toEqual([
      ['Fredrickson, E.', 1],
      ['Fredrickson, E. D.', 2],
      ['Fredrickson, E. M.', 1],
    ]);
  });

  it('are read without a row of the keys table', () => {
    const db = new Database(stepwise, { readonly: true });
    try {
      const statements: string[] = [];
      const prepare = db.prepare.bind(db);
      db.prepare = (sql: string) => {
        statements.push(sql);
        return prepare(sql);
      };
      const index = loadFacetIndex(db, lit, lit.facets, 1400);
      expect(index.facets.get('author')!.values.length).toBeGreaterThan(500);
      expect(statements.filter((sql) => /_keys\b/.test(sql))).toEqual([]);
    } finally {
      db.close();
    }
  });
});
