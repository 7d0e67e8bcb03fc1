import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import { ReadConnection } from './read-connection';
import { openStoreWriter } from './sqlite';

let dir: string;
let path: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'records-read-connection-'));
  path = join(dir, 'store.db');
  openStoreWriter(path).close();
  // A rollback journal (as bulk loads left their files until they ended in WAL mode), where a reader holds no snapshot.
  const db = new Database(path);
  db.pragma('journal_mode = DELETE');
  db.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether a writer that will not wait commits now. */
function writerCommits(table: string): boolean {
  const writer = new Database(path);
  writer.pragma('busy_timeout = 0');
  try {
    writer.exec(`BEGIN IMMEDIATE; CREATE TABLE ${table} (x); COMMIT`);
    return true;
  } catch {
    return false;
  } finally {
    writer.close();
  }
}

describe('a read connection without a snapshot', () => {
  it("reads a search's rows in one transaction, which keeps a writer's commit out until the search ends and no longer", () => {
    const connection = ReadConnection.open(path, false);
    const count = () => connection.prepare('SELECT count(*) FROM meta').pluck().get() as number;
    const during = connection.reading(() => {
      count();
      return { inside: connection.db.inTransaction, commits: writerCommits('during'), after: count() };
    });
    expect(during).toEqual({ inside: true, commits: false, after: count() });
    expect(connection.db.inTransaction).toBe(false);
    expect(writerCommits('after')).toBe(true);
    connection.close();
  });
});

describe('a store built in bulk', () => {
  it('is left in WAL mode with nothing beside it, so a served reader reads one snapshot and takes no lock per search', () => {
    const built = join(dir, 'built.db');
    const lit = deploymentByKey('LIT')!;
    const bulk = openStoreWriter(built, { bulk: true });
    bulk.put('LIT', generateRecords(lit, 30, { seed: 5, startId: 1 }));
    bulk.close();
    expect(['-wal', '-shm', '-journal'].filter((suffix) => existsSync(built + suffix))).toEqual([]);

    const served = ReadConnection.open(built, true);
    const count = () => served.prepare('SELECT count(*) FROM lit_records').pluck().get() as number;
    try {
      expect(served.db.inTransaction).toBe(true);
      const writer = openStoreWriter(built);
      try {
        writer.put('LIT', generateRecords(lit, 5, { seed: 6, startId: 100 }));
      } finally {
        writer.close();
      }
      // The write committed beside the reader, which goes on reading the file as it opened it.
      expect(served.reading(count)).toBe(30);
    } finally {
      served.close();
    }
    const after = ReadConnection.open(built, true);
    expect(after.reading(() => after.prepare('SELECT count(*) FROM lit_records').pluck().get())).toBe(35);
    after.close();
  });
});
