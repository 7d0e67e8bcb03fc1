import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadConnection } from './read-connection';
import { openStoreWriter } from './sqlite';

let dir: string;
let path: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'records-read-connection-'));
  path = join(dir, 'store.db');
  openStoreWriter(path).close();
  // As a bulk load leaves it: a rollback journal, where a reader holds no snapshot.
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
