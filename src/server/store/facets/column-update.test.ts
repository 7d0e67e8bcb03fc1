import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import { buildRecord } from '../../http/server-fixture.test-support';
import { openStoreWriter } from '../sqlite/sqlite';
import type { StoredRecord } from '../types';
import { recordsPerBlock } from './code-blocks';
import { readFacetColumns } from './column-reader';
import { updateFacetColumns, type PreviousFacets } from './column-update';
import type { FacetIndex } from './facet-index';
import { prepareFacetPages, type FacetOrder } from './pages';

/**
 * A generation's facet index taken over from the one before (column-update.ts) holds what a
 * reader of every column finds, write after write: new records, new values, records
 * replaced with other values (some no record holds any longer) and names whose joins change;
 * and a write of new records decodes only the blocks it wrote.
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-column-update-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const named = (id: string, author: string, language = 'English') =>
  buildRecord(lit, { id, title: `Plasma notes ${id}`, authors: [author], published: '2011-05-01T00:00:00Z', language });

/** Each facet's values as a user sees them: value, other spellings, records, in A–Z order. */
function seen(index: FacetIndex, orders: ReadonlyMap<string, FacetOrder>) {
  const records = new Map<number, number[]>();
  const { offsets, codes, joint } = index;
  for (let r = 0; r + 1 < offsets.length; r++)
    for (let k = offsets[r]!; k < offsets[r + 1]!; k++) {
      const code = codes[k]!;
      const members =
        code < index.totals.length
          ? [code]
          : Array.from(joint!.members.subarray(joint!.starts[code - joint!.base], joint!.starts[code - joint!.base + 1]));
      for (const member of members) {
        const holding = records.get(member);
        if (holding) holding.push(r);
        else records.set(member, [r]);
      }
    }
  return [...index.facets].map(([name, { values, firstCode, variants }]) => ({
    name,
    values: Array.from(orders.get(name)!.byValue)
      .filter((code) => index.totals[firstCode + code]! > 0)
      .map((code) => ({
        value: values[code],
        variants: variants?.get(code) ?? [],
        total: index.totals[firstCode + code],
        records: records.get(firstCode + code) ?? [],
      })),
  }));
}

describe('a facet index taken over from the generation before', () => {
  it('holds what a reader of every column finds, and decodes only the blocks a write of new records wrote', () => {
    const path = join(dir, 'stepwise.db');
    const writes: StoredRecord[][] = [
      [...generateRecords(lit, 3000, { seed: 9, startId: 1 })],
      // New records: the column's tail, new values among them.
      [...generateRecords(lit, 200, { seed: 19, startId: 3001 }), named('9001', 'Fredrickson, E.')],
      // Other values for records already stored, across two blocks; a record holding two spellings of one name (counted once).
      [
        ...generateRecords(lit, 150, { seed: 10, startId: 950 }),
        named('9002', 'Fredrickson, Eric D.'),
        buildRecord(lit, {
          id: '9005',
          title: 'Plasma notes 9005',
          authors: ['Fredrickson, Eric D.', 'Fredrickson, E.'],
          published: '2011-05-01T00:00:00Z',
          language: 'English',
        }),
      ],
      // A record's only author replaced: the value no record holds any longer goes.
      [named('9001', 'Fredrickson, Q.', 'French')],
      // A third form breaks the join of the shortest one.
      [named('9003', 'Fredrickson, E.'), named('9004', 'Fredrickson, E. M.'), named('10', 'Fredrickson, E. D.')],
      [...generateRecords(lit, 500, { seed: 29, startId: 3201 })],
    ];
    const authors = lit.facets.filter((facet) => facet.name === 'author');
    const writer = openStoreWriter(path);
    let previous: PreviousFacets | undefined;
    const taken: { recordsRead: number; blocksRead: number; readAgain?: string }[] = [];
    try {
      for (const batch of writes) {
        writer.put('LIT', batch);
        const db = new Database(path, { readonly: true });
        try {
          const capacity = (db.prepare('SELECT max(id) FROM lit_records').pluck().get() as number) + 1;
          const read = updateFacetColumns(db, lit, lit.facets, capacity, previous);
          const fresh = readFacetColumns(db, lit, lit.facets, capacity);
          const orders = prepareFacetPages(read.index);
          if (read.orders)
            expect(new Map([...read.orders].map(([name, { byValue }]) => [name, Array.from(byValue)]))).toEqual(
              new Map([...orders].map(([name, { byValue }]) => [name, Array.from(byValue)])),
            );
          const freshSeen = seen(fresh.index, prepareFacetPages(fresh.index));
          expect(seen(read.index, orders)).toEqual(freshSeen);
          // Read alone, with no joint codes made over it, the authors' facet finds the same.
          const alone = readFacetColumns(db, lit, authors, capacity).index;
          expect(seen(alone, prepareFacetPages(alone))).toEqual(freshSeen.filter(({ name }) => name === 'author'));
          taken.push({
            recordsRead: read.recordsRead,
            blocksRead: read.blocksRead,
            ...(read.readAgain ? { readAgain: read.readAgain } : {}),
          });
          previous = { index: read.index, columns: read.columns, orders };
        } finally {
          db.close();
        }
      }
    } finally {
      writer.close();
    }
    // The first reads every column; each later one takes the index before over, working out again only the
    // records of the blocks a write changed and those holding a name whose join changed.
    expect(taken[0]).toMatchObject({ readAgain: 'no index before', recordsRead: 3001 });
    expect(taken.slice(1).map(({ readAgain }) => readAgain)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(taken[3]!.recordsRead).toBeLessThanOrEqual(recordsPerBlock);
    expect(taken[5]!.recordsRead).toBeLessThan(3701 / 2);
  }, 120_000);
});
