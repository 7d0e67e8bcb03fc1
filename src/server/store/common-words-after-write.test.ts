import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { parseListRequest } from '../http/criteria';
import { parseQueryString } from '../http/query-string';
import { referenceIndex, referenceRank } from './reference-ranker.test-support';
import { openEngine } from './sqlite/query-engine';
import { putBatches } from './put-batches.test-support';
import type { StoredRecord } from './types';

/**
 * Searches of common words, whose block tables a reader keeps across searches
 * (engine/postings/kept-tables.ts), rank as the reference does when searched again and
 * again, and on a reader opened right after a write that changes the common words' lists
 * (records that lose them, new ones that add them).
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-common-after-write-'));
const path = join(dir, 'store.db');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const retitled = (records: Iterable<StoredRecord>, title: string, description: string): StoredRecord[] =>
  [...records].map((stored) => ({ ...stored, record: { ...stored.record, title, description } }));

const searches = ['q=the reactor', 'q=data plasma', 'q=of the', 'q=the OR grid', 'q=data the analysis', 'q=the'];

const write = (batch: readonly StoredRecord[]) => putBatches(path, [batch]);

/** Each search's records in order, from a reader opened now, each search run twice; and the reference's. */
function ranked(): { found: number[][]; expected: number[][] } {
  const engine = openEngine(path);
  const db = new Database(path, { readonly: true });
  try {
    const index = referenceIndex(db, lit);
    const criteria = searches.map((search) => parseListRequest(lit, parseQueryString(search)).criteria);
    const found = [1, 2].flatMap(() => criteria.map((each) => Array.from(engine.rank('LIT', each, 10_000).ids)));
    const expected = [1, 2].flatMap(() => criteria.map((each) => referenceRank(index, each).ids));
    return { found, expected };
  } finally {
    engine.close();
    db.close();
  }
}

describe('common words', () => {
  it('rank as the reference does, searched again and again, and right after a write that changes their lists', () => {
    write([...generateRecords(lit, 1200, { seed: 13, startId: 1 })]);
    const before = ranked();
    expect(before.found).toEqual(before.expected);
    write([
      ...retitled(generateRecords(lit, 300, { seed: 13, startId: 1 }), 'Plasma grid', 'Reactor plasma grid.'),
      ...retitled(generateRecords(lit, 60, { seed: 31, startId: 9001 }), 'The data of the reactor', 'Analysis of the data.'),
    ]);
    const after = ranked();
    expect(after.expected[5]!.length).not.toBe(before.expected[5]!.length);
    expect(after.found).toEqual(after.expected);
  }, 120_000);
});
