import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { defaultStartId, generateRecords } from '../../corpus/generate';
import { openStoreWriter } from '../sqlite/sqlite-writer';
import { openIndexWriter } from './index-writer';

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-index-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Generated LIT records as PostgreSQL's rows hold them (pg-writer.ts). */
const rowsOf = (count: number, startId: number) =>
  [...generateRecords(lit, count, { seed: 3, startId })].map(({ record, fulltext, site, generated }) => ({
    doc: JSON.stringify(record),
    extra: JSON.stringify({ fulltext, site, generated }),
  }));

function storeWith(name: string, count: number): string {
  const path = join(dir, name);
  const writer = openStoreWriter(path);
  writer.put('LIT', generateRecords(lit, count, { seed: 3, startId: defaultStartId }));
  writer.close();
  return path;
}

function recordsIn(path: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM lit_records').pluck().get();
  } finally {
    db.close();
  }
}

describe('the local index’s writer on a thread of its own', () => {
  it('leaves the server’s thread free while a write waits: the lock it waits for is released from that thread, and the write goes in', async () => {
    const path = storeWith('waits.db', 10);
    const writer = await openIndexWriter(path);
    const lock = new Database(path);
    lock.exec('BEGIN IMMEDIATE');
    // Written on this thread, the put would hold it until SQLite gave up waiting for the lock.
    const written = writer.put('LIT', rowsOf(5, defaultStartId + 10));
    lock.exec('COMMIT');
    lock.close();
    expect(await written).toBe(5);
    await writer.close();
    expect(recordsIn(path)).toBe(15);
  });

  it('replaces a record written again, one put after another', async () => {
    const path = storeWith('again.db', 3);
    const writer = await openIndexWriter(path);
    expect(await writer.put('LIT', rowsOf(2, defaultStartId + 2))).toBe(2);
    expect(await writer.put('LIT', rowsOf(1, defaultStartId + 4))).toBe(1);
    await writer.close();
    expect(recordsIn(path)).toBe(5);
  });

  it('fails to open a file of another store schema with the writer’s own message (the index is then built again)', async () => {
    const path = storeWith('other.db', 1);
    const db = new Database(path);
    db.prepare(`UPDATE meta SET value = 'other' WHERE key = 'schema'`).run();
    db.close();
    await expect(openIndexWriter(path)).rejects.toThrow(/has store schema other/);
  });
});
