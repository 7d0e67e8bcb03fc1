import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { tablesOf } from '../store/sqlite/schema';
import { openStoreWriter } from '../store/sqlite/sqlite';
import { vocabularyData } from './vocabulary';

/**
 * A vocabulary made after a write from the one before it samples only the records written
 * since, and suggests as one made afresh does.
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'vocabulary-'));
const path = join(dir, 'records.db');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(count: number, startId: number, seed: number) {
  const writer = openStoreWriter(path);
  try {
    writer.put('LIT', generateRecords(lit, count, { seed, startId }));
  } finally {
    writer.close();
  }
}

function read<T>(use: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true });
  try {
    return use(db);
  } finally {
    db.close();
  }
}

describe('a vocabulary after a write', () => {
  it('samples only the records written since the one before, and equals one made afresh', () => {
    write(300, 1, 5);
    const before = read((db) => vocabularyData(db, lit));
    expect(before.sampled.records).toBe(300);
    write(200, 1_000, 6);
    const after = read((db) => vocabularyData(db, lit, before));
    const afresh = read((db) => vocabularyData(db, lit));
    expect(after.sampled.records).toBe(200);
    expect(afresh.sampled.records).toBe(500);
    expect({ ...after, sampled: undefined }).toEqual({ ...afresh, sampled: undefined });
    expect(after.words.length).toBeGreaterThan(before.words.length);
  });

  it('is made afresh where the one before sampled records no longer there', () => {
    const later = read((db) => vocabularyData(db, lit));
    const fromElsewhere = { ...later, sampled: { ...later.sampled, through: later.sampled.through + 1 } };
    expect(read((db) => vocabularyData(db, lit, fromElsewhere)).sampled.records).toBe(500);
  });
});

/** `db` counting the rows its statements on `table` give back (each row a string this thread makes). */
function countingRows(db: Database.Database, table: string): { db: Database.Database; rows: () => number } {
  let rows = 0;
  const counted = (statement: Database.Statement): Database.Statement =>
    new Proxy(statement, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (result === target) return counted(target);
          if (key === 'get' && result !== undefined) rows++;
          if (key === 'all') rows += (result as unknown[]).length;
          if (key === 'iterate')
            return (function* () {
              for (const row of result as Iterable<unknown>) {
                rows++;
                yield row;
              }
            })();
          return result;
        };
      },
    });
  const proxy = new Proxy(db, {
    get(target, key) {
      if (key === 'prepare') return (sql: string) => (sql.includes(table) ? counted(target.prepare(sql)) : target.prepare(sql));
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: proxy, rows: () => rows };
}

describe('a vocabulary’s weights', () => {
  it('are looked up for its spellings, not read from every word the index holds (over a million at a million records)', () => {
    const wordy = join(dir, 'wordy.db');
    const records = [...generateRecords(lit, 200, { seed: 7, startId: 1 })];
    // Words of the full text only, which the sample does not spell: the index holds them all.
    const letter = (n: number) => String.fromCharCode(97 + (n % 26));
    const rare = Array.from({ length: 5_000 }, (_, n) => `qz${letter(n / 676)}${letter(n / 26)}${letter(n)}x`);
    const writer = openStoreWriter(wordy);
    try {
      writer.put('LIT', [...records.slice(1), { ...records[0]!, fulltext: rare.join(' ') }]);
    } finally {
      writer.close();
    }
    const db = new Database(wordy, { readonly: true });
    try {
      const { terms } = tablesOf(lit);
      const indexWords = db.prepare(`SELECT count(*) FROM ${terms}`).pluck().get() as number;
      const counted = countingRows(db, terms);
      const data = vocabularyData(counted.db, lit);
      expect(indexWords).toBeGreaterThan(3 * data.words.length);
      expect(data.words.length).toBeGreaterThan(100);
      expect(counted.rows()).toBeGreaterThan(0);
      expect(counted.rows()).toBeLessThanOrEqual(data.words.length);
    } finally {
      db.close();
    }
  });
});
